extension ControlCommands {
    /// The cover file `albumart` would send for the song `file` (its exact name bytes, relative to
    /// `musicFolder`): the first of `coverNames` in the song's folder, as full path bytes; nil when none.
    /// For the web remote's `/art/ID`, so both find the same picture.
    public static func coverFile(musicFolder: String, songFile: [UInt8]) -> [UInt8]? {
        coverFile(folder: Array(musicFolder.utf8) + [slash] + parent(of: songFile))
    }
}
