import ConcordWire
import Foundation
import Testing

@Suite struct DiffOperationCodingTests {
  @Test func operationsHaveAReadableWireForm() throws {
    let examples: [(DiffOperation, String)] = [
      (.set(path: ["columns", .id("todo"), "title"], value: "To do"),
       #"{"op":"set","path":["columns",{"id":"todo"},"title"],"value":"To do"}"#),
      (.remove(path: ["columns", .id("todo"), "cards", .id(7)]), #"{"op":"remove","path":["columns",{"id":"todo"},"cards",{"id":7}]}"#),
      (.move(path: ["cards", .id(7)], after: 3), #"{"after":3,"op":"move","path":["cards",{"id":7}]}"#),
      (.move(path: ["cards", .id(9)], after: nil), #"{"after":null,"op":"move","path":["cards",{"id":9}]}"#),
      (.append(path: ["log"], values: ["saved", 42]), #"{"op":"append","path":["log"],"values":["saved",42]}"#),
      (.truncate(path: ["log"], count: 2), #"{"count":2,"op":"truncate","path":["log"]}"#),
      (.set(path: [], value: [:]), #"{"op":"set","path":[],"value":{}}"#),
    ]
    for (operation, text) in examples {
      #expect(operation.description == text)
      #expect(try JSONValue(encoding: operation).jsonText == text)
      #expect(try JSONDecoder().decode(DiffOperation.self, from: Data(text.utf8)) == operation)
    }
    let diff = StateDiff(operations: examples.map(\.0))
    #expect(diff.jsonText == "[" + examples.map(\.1).joined(separator: ",") + "]")
    #expect(diff.encodedSize == diff.jsonText.utf8.count)
  }

  @Test func unknownFieldsAreIgnored() throws {
    let text = #"{"op":"remove","path":["a"],"since":"v2"}"#
    #expect(try JSONDecoder().decode(DiffOperation.self, from: Data(text.utf8)) == .remove(path: ["a"]))
  }

  @Test func malformedOperationsAreDecodingErrors() {
    let bad = [
      #"[]"#, #"{"path":[]}"#, #"{"op":"set","path":[]}"#, #"{"op":"patch","path":[]}"#,
      #"{"op":"remove","path":"a"}"#, #"{"op":"remove","path":[-1]}"#, #"{"op":"remove","path":[1.5]}"#,
      #"{"op":"remove","path":[{"id":true}]}"#, #"{"op":"remove","path":[{"id":1,"x":2}]}"#,
      #"{"op":"remove","path":[null]}"#, #"{"op":"move","path":[{"id":1}]}"#,
      #"{"op":"move","path":[{"id":1}],"after":[1]}"#, #"{"op":"append","path":[],"values":1}"#,
      #"{"op":"truncate","path":[],"count":-1}"#, #"{"op":"truncate","path":[],"count":0.5}"#,
    ]
    for text in bad {
      #expect(throws: DecodingError.self, "\(text)") {
        try JSONDecoder().decode(DiffOperation.self, from: Data(text.utf8))
      }
    }
  }

  @Test func decodingErrorsSayWhatIsWrong() {
    do {
      _ = try JSONDecoder().decode(StateDiff.self, from: Data(#"[{"op":"patch","path":[]}]"#.utf8))
      Issue.record("decoded an unknown operation")
    } catch let DecodingError.dataCorrupted(context) {
      #expect(context.debugDescription.contains(#"unknown operation "patch""#))
    } catch {
      Issue.record("unexpected \(error)")
    }
  }

  @Test func elementIdsAndPathComponentsCodeAsPlainJSON() throws {
    #expect(try JSONValue(encoding: [PathComponent.key("a"), .index(2), .id("x"), .id(3)]).jsonText == #"["a",2,{"id":"x"},{"id":3}]"#)
    #expect(try JSONValue(encoding: ElementID.number(2.5)).jsonText == "2.5")
    #expect(ElementID(of: ["id": "c1", "t": 1]) == "c1")
    #expect(ElementID(of: ["id": [1]]) == nil)
    #expect(ElementID(of: [1]) == nil)
    #expect(throws: DecodingError.self) { try JSONDecoder().decode(ElementID.self, from: Data("null".utf8)) }
  }
}
