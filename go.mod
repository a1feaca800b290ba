module github.com/icesql/icesql

go 1.26

require github.com/apache/arrow-go/v18 v18.8.0
