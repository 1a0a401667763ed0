import ArgumentParser

/// The display flags `run` and `debug lcd` share; each is also a configuration key.
struct DisplayOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Where frames go (default: the terminal when run on one).", valueName: "terminal|lcdproc|hd44780|none"))
    var display: String?

    @Option(help: ArgumentHelp("The display's size, columns x rows (default 20x4).", valueName: "20x4"))
    var lcd: String?

    @Option(help: ArgumentHelp("LCDd's address.", valueName: "HOST:PORT"))
    var lcdproc: String?

    @Option(name: .customLong("i2c-bus"), help: ArgumentHelp("The HD44780's I2C bus.", valueName: "/dev/i2c-N"))
    var i2cBus: String?

    @Option(name: .customLong("i2c-address"), help: ArgumentHelp("The PCF8574 backpack's address.", valueName: "0x27"))
    var i2cAddress: String?

    /// The given flags as configuration keys and values.
    var flags: [String: String] {
        var out: [String: String] = [:]
        for case (let key, let value?) in [
            ("display", display), ("lcd", lcd), ("lcdproc", lcdproc), ("i2c_bus", i2cBus), ("i2c_address", i2cAddress),
        ] { out[key] = value }
        return out
    }
}
