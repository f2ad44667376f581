/// What a scope's renderer is told besides the state: how wide to draw, and what of the state
/// is still pending.
///
/// ```swift
/// render: { (list: TodoList, context) in
///   let pending = context.pending(list.items, in: \.items)
///   return list.items.map { item in (pending.contains(item.id) ? "◌ " : "  ") + item.title }
/// }
/// ```
public struct RenderContext<State: Sendable>: Sendable {
  /// The most columns a line may take.
  public var width: Int
  /// The daemon's state, when actions still pending make the shown one differ from it: what
  /// differs is pending. Nil when nothing is.
  public var confirmed: State?
  /// Who the window's person is to the daemon, to make what concerns them stand out (a
  /// mention); nil before the window knows.
  public var user: String?
  /// The lines the window will show, when it knows: a renderer may leave the others empty, but
  /// must return as many lines as the whole state takes (the window scrolls by them). Nil for
  /// every line.
  public var shown: Range<Int>?
  /// How many of the first lines the window shows whatever its scroll: the scope's header
  /// (``WindowScope/header``), drawn as well as ``shown``.
  public var pinned: Int

  /// What a renderer is told; windows make one for each drawing, tests make their own.
  ///
  /// - Parameters:
  ///   - width: the columns the lines may take.
  ///   - confirmed: the daemon's state, when pending actions make the shown one differ.
  ///   - user: the window's person, when known.
  ///   - shown: the lines the window will show, when known.
  ///   - pinned: how many first lines it shows as well, whatever the scroll.
  public init(width: Int, confirmed: State? = nil, user: String? = nil, shown: Range<Int>? = nil, pinned: Int = 0) {
    self.width = width
    self.confirmed = confirmed
    self.user = user
    self.shown = shown
    self.pinned = pinned
  }

  /// The same context for another kind of state.
  public func map<Other>(_ transform: (State) throws -> Other) -> RenderContext<Other> {
    RenderContext<Other>(
      width: width, confirmed: confirmed.flatMap { try? transform($0) }, user: user, shown: shown, pinned: pinned)
  }

  /// True when line `index` will be shown (or the window did not say which will be).
  public func shows(line index: Int) -> Bool { index < pinned || (shown?.contains(index) ?? true) }

  /// The ids of the `shown` elements that the daemon's state does not hold as they are (by
  /// `elements`): new, or changed by an action still pending.
  public func pending<Element: Identifiable & Equatable>(
    _ shown: [Element], in elements: (State) -> [Element]
  ) -> Set<Element.ID> {
    guard let confirmed else { return [] }
    var daemon: [Element.ID: Element] = [:]
    for element in elements(confirmed) { daemon[element.id] = element }
    return Set(shown.lazy.filter { daemon[$0.id] != $0 }.map(\.id))
  }

  /// The mark before what is pending: the action has not been answered yet.
  public static var pendingMark: String { "◌" }
}
