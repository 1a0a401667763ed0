/// The MPD protocol version ClickWheel announces in its greeting (`OK MPD 0.23.5`).
///
/// This is the *protocol* version MPD 0.23.12 announces, not a daemon version; clients such as
/// libmpdclient and M.A.L.P. gate features on it and need exactly three numbers.
public enum MPDProtocolVersion {
    public static let announced = "0.23.5"

    /// The greeting line sent once on every accepted connection, before the client says anything.
    public static let greeting: [UInt8] = Array("OK MPD \(announced)\n".utf8)
}
