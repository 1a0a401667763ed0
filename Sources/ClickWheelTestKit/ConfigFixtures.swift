/// Configuration files for the tests that rewrite one (calibration): comments, odd spacing and keys
/// that must survive an edit.
public enum ConfigFixtures {
    /// A user's file with the wheel keys at their defaults, comments on their lines, and other keys.
    public static let commented = """
        # Kitchen Pi: do not lose this comment.
        music: ~/Music            # the NAS

        input: [auto]
        steps_per_detent: 1       # events per detent of a rotary encoder: 1, 2 or 4
        invert_wheel: false       # clockwise moves down unless true
        volume: 40

        """
}
