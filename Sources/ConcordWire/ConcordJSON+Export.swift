// The wire's messages carry JSON: whoever speaks the wire gets `JSONValue` and `JSONParser` too.
@_exported import ConcordJSON
