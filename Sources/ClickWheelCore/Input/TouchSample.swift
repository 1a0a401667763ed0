/// The finger's position and contact on a touchpad, followed event by event: ABS_X/ABS_Y or
/// multitouch slot 0 (ABS_MT_POSITION_X/Y, ABS_MT_TRACKING_ID), and BTN_TOUCH. Shared by the touch
/// ring decoder and the calibration, which read a touch the same way.
struct TouchSample: Hashable, Sendable {
    private(set) var x: Int32?
    private(set) var y: Int32?
    private var slot: Int32 = 0
    private var keyTouch = false
    private var mtTouch = false

    /// Whether a finger is down (by BTN_TOUCH or a live slot-0 tracking id).
    var touching: Bool { keyTouch || mtTouch }

    /// Forgets the contact and position (after SYN_DROPPED); the slot stays as the device left it.
    mutating func lift() {
        keyTouch = false
        mtTouch = false
        x = nil
        y = nil
    }

    /// Takes one event; returns false when it is not about position or contact.
    @discardableResult
    mutating func feed(type: UInt16, code: UInt16, value: Int32) -> Bool {
        switch (type, code) {
        case (EvdevCode.evAbs, EvdevCode.absX): x = value
        case (EvdevCode.evAbs, EvdevCode.absY): y = value
        case (EvdevCode.evAbs, EvdevCode.absMTSlot): slot = value
        case (EvdevCode.evAbs, EvdevCode.absMTPositionX) where slot == 0: x = value
        case (EvdevCode.evAbs, EvdevCode.absMTPositionY) where slot == 0: y = value
        case (EvdevCode.evAbs, EvdevCode.absMTTrackingID) where slot == 0: mtTouch = value >= 0
        case (EvdevCode.evKey, EvdevCode.btnTouch): keyTouch = value != 0
        default: return false
        }
        return true
    }
}
