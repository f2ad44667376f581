import ConcordWindow
import Testing

/// What a person sees of a body longer than the window.
@Suite struct ScrollPositionTests {
  @Test func aBoardOpensAtTheTopAndPagesKeepALineOfContext() {
    var board = ScrollPosition(followsEnd: false)
    board.fit(lines: 100, rows: 20)
    #expect(board.visible == 0..<20 && board.hasMoreBelow && !board.hasMoreAbove)
    board.page(up: false)
    #expect(board.visible == 19..<39)
    board.toEnd()
    #expect(board.visible == 80..<100 && !board.hasMoreBelow)
    board.wheel(up: true)
    #expect(board.top == 77)
    board.fit(lines: 110, rows: 20)
    #expect(board.top == 77 && board.newBelow == 0, "a board keeps its place; nothing is 'new'")
    board.fit(lines: 50, rows: 20)
    #expect(board.visible == 30..<50, "a shorter body pulls the view back")
    board.toStart()
    #expect(board.top == 0)
  }

  @Test func aConversationFollowsItsNewestLineUntilThePersonScrollsUp() {
    var chat = ScrollPosition(followsEnd: true)
    chat.fit(lines: 100, rows: 20)
    #expect(chat.visible == 80..<100 && chat.atEnd)
    chat.fit(lines: 103, rows: 20)
    #expect(chat.visible == 83..<103, "new lines come into view")
    chat.page(up: true)
    #expect(chat.top == 64 && !chat.atEnd)
    chat.fit(lines: 106, rows: 20)
    #expect(chat.top == 64 && chat.newBelow == 3, "its place is kept, and what arrived is counted")
    chat.page(up: false)
    chat.page(up: false)
    #expect(chat.atEnd && chat.newBelow == 0 && chat.visible == 86..<106)
  }

  @Test func aBodyThatFitsDoesNotScroll() {
    var short = ScrollPosition(followsEnd: true)
    short.fit(lines: 5, rows: 20)
    short.page(up: true)
    short.wheel(up: false)
    #expect(short.visible == 0..<5 && !short.hasMoreAbove && !short.hasMoreBelow)
  }
}
