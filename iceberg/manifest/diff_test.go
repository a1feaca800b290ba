package manifest

import (
	"fmt"
	"reflect"
)

// diffFields names the struct fields (recursively) where a and b differ.
func diffFields(a, b any) []string {
	var out []string
	var walk func(prefix string, x, y reflect.Value)
	walk = func(prefix string, x, y reflect.Value) {
		if x.Kind() == reflect.Struct {
			for i := 0; i < x.NumField(); i++ {
				walk(prefix+"."+x.Type().Field(i).Name, x.Field(i), y.Field(i))
			}
			return
		}
		if !reflect.DeepEqual(x.Interface(), y.Interface()) {
			out = append(out, fmt.Sprintf("%s: %#v != %#v", prefix, x.Interface(), y.Interface()))
		}
	}
	walk("", reflect.ValueOf(a), reflect.ValueOf(b))
	return out
}
