/// An error reported by libsonic: the function that failed. libsonic's only failure is running out of
/// memory for its buffers (its calls return 0 or NULL, with no code or text of their own).
public struct SonicError: Error, CustomStringConvertible, Sendable {
    /// The libsonic function that failed (`sonicCreateStream`, …).
    public var operation: String

    public init(operation: String) { self.operation = operation }

    public var description: String { "\(operation): out of memory" }

    /// Turns libsonic's success flag (non-zero) into an error when it is 0 (the one checking helper).
    static func check(_ ok: Int32, _ operation: @autoclosure () -> String) throws(SonicError) {
        guard ok == 0 else { return }
        throw SonicError(operation: operation())
    }
}
