/// A named lane for effects, with a policy for what happens when too many want to run at once.
///
/// The policies are those of Actomaton's `EffectQueue` and of Harvest's flatten strategies:
///
/// | policy | when the queue is full | with `maxCount: 1` |
/// |---|---|---|
/// | ``Policy/newest(_:)`` | the oldest running effect is cancelled | switch-latest |
/// | ``Policy/oldestDiscardingNew(_:)`` | the new effect is dropped | exhaust |
/// | ``Policy/oldestSuspendingNew(_:)`` | the new effect waits for a free slot | concat |
///
/// A `delay` holds each admitted effect for that long (on the store's clock) before it starts,
/// while it keeps its slot. That is all debounce and throttle need:
///
/// ```swift
/// // Debounce: only the last save within 300 ms runs.
/// static let save = EffectQueue("save", .newest(1), delay: .milliseconds(300))
/// // Throttle: at most one refresh per second; requests in between are dropped.
/// static let refresh = EffectQueue("refresh", .oldestDiscardingNew(1), delay: .seconds(1))
///
/// return .run { send in ... }.queued(in: .save)
/// ```
///
/// A queue is identified by its id within a store; give one id a single policy.
public struct EffectQueue: Hashable, Sendable, CustomStringConvertible {
  /// What the queue does with an effect that arrives when `maxCount` effects already hold slots.
  public enum Policy: Hashable, Sendable {
    /// Keep the newest `maxCount` effects: cancel the oldest running one to make room.
    case newest(Int)
    /// Keep the oldest `maxCount` effects: drop the newcomer.
    case oldestDiscardingNew(Int)
    /// Keep the oldest `maxCount` effects: the newcomer waits, first come first served.
    case oldestSuspendingNew(Int)

    var maxCount: Int {
      switch self {
      case let .newest(count), let .oldestDiscardingNew(count), let .oldestSuspendingNew(count):
        return max(1, count)
      }
    }
  }

  /// The queue's name within the store.
  public var id: EffectID
  /// Which effects run when more than the queue's `maxCount` arrive.
  public var policy: Policy
  /// How long each admitted effect waits, holding its slot, before it starts.
  public var delay: Duration

  /// A queue named `id` within the store.
  ///
  /// - Parameters:
  ///   - id: the queue's name; effects sent to equal ids share one queue.
  ///   - policy: which effects run when the queue is full.
  ///   - delay: how long each admitted effect waits before it starts.
  public init(_ id: some Hashable & Sendable, _ policy: Policy, delay: Duration = .zero) {
    self.id = EffectID(id)
    self.policy = policy
    self.delay = delay
  }

  func namespaced(by namespace: EffectID) -> EffectQueue {
    var queue = self
    queue.id = id.namespaced(by: namespace)
    return queue
  }

  public var description: String { "EffectQueue(\(id), \(policy), delay: \(delay))" }
}

extension Effect {
  /// Runs this effect in `queue`, under the queue's policy and delay.
  public func queued(in queue: EffectQueue) -> Effect {
    switch operation {
    case .none, .refuse: return self
    default: return Effect(.queued(queue, self))
    }
  }
}
