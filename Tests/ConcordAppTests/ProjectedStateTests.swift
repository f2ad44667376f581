import Foundation
import Testing

@testable import ConcordApp

/// The line limit skips measuring only states whose JSON is bounded by their type: no text,
/// array or dictionary a peer could fill.
@Suite struct ProjectedStateTests {
  struct Position: Encodable, Equatable { var column: Int; var due: Date?; var done: Bool }
  struct Titled: Encodable, Equatable { var id: Int; var title: String }
  enum Mode: String, Encodable { case on, off }

  @Test func onlyStatesWithoutStorageOfTheirOwnAreSmallByType() {
    #expect(ProjectedState.isSmall(Int.self))
    #expect(ProjectedState.isSmall(Position.self))
    #expect(ProjectedState.isSmall(Mode.self))
    #expect(!ProjectedState.isSmall(String.self))
    #expect(!ProjectedState.isSmall(Titled.self))
    #expect(!ProjectedState.isSmall([Int].self))
    #expect(!ProjectedState.isSmall([String: [String]].self))
  }

  @Test func projectionsCompareByValueAndType() throws {
    #expect(ProjectedState(3).hasSameValue(as: ProjectedState(3)))
    #expect(!ProjectedState(3).hasSameValue(as: ProjectedState(4)))
    #expect(!ProjectedState(3).hasSameValue(as: ProjectedState("3")))
    #expect(!ProjectedState(3).hasSameValue(as: nil))
    #expect(try ProjectedState(Titled(id: 1, title: "x")).json().json == ["id": 1, "title": "x"])
  }
}
