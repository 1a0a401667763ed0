/// The MPD protocol version ClickWheel announces in its greeting (`OK MPD 0.23.5`).
public enum MPDProtocolVersion {
    public static let announced = "0.23.5"
}
