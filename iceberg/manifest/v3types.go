package manifest

// timestampNanos is the Avro logical type of timestamp_ns and
// timestamptz_ns partition values: an Iceberg convention the Avro
// specification does not define.
const timestampNanos = "timestamp-nanos"
