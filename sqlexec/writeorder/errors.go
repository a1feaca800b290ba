package writeorder

import "errors"

// ErrClosed is returned by Write after Close or Abort.
var ErrClosed = errors.New("writeorder: writer closed")
