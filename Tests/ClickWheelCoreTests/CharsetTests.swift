import ClickWheelCore
import Testing

@Suite struct CharsetTests {
    @Test func a00KeepsItsRomLettersAndTransliteratesTheRest() {
        let a00 = TextCharset.hd44780A00
        #expect(a00.fold("Motörhead über Straße") == "Motörhead über Straße")
        #expect(a00.fold("Sigur Rós, Beyoncé, Ærø") == "Sigur Ros, Beyonce, AEro")
        #expect(a00.fold("Ä Ö Ü") == "A O U")
        #expect(a00.fold(#"AC\DC ~ 5µs 20°"#) == "AC/DC - 5µs 20°")
        #expect(a00.fold("日本") == "??")
    }

    @Test func a00BytesAreTheRomCodes() {
        let a00 = TextCharset.hd44780A00
        #expect(a00.bytes(for: "ä") == [0xE1])
        #expect(a00.bytes(for: "ö") == [0xEF])
        #expect(a00.bytes(for: "ü") == [0xF5])
        #expect(a00.bytes(for: "ß") == [0xE2])
        #expect(a00.bytes(for: "µ") == [0xE4])
        #expect(a00.bytes(for: "°") == [0xDF])
        #expect(a00.bytes(for: "A") == [0x41])
        // Never a backslash or tilde byte: on A00 those are ¥ and →.
        for c in a00.fold(#"\~"#) { #expect(!a00.bytes(for: c).contains(0x5C) && !a00.bytes(for: c).contains(0x7E)) }
    }

    @Test func latin1KeepsLatin1AndFoldsTheRest() {
        let l1 = TextCharset.latin1
        #expect(l1.fold("Björk – Café “Live”") == "Björk - Café \"Live\"")
        #expect(l1.bytes(for: "é") == [0xE9])
        #expect(l1.fold("Łódź") == "Lódz")
        #expect(l1.fold("›") == "»")
    }

    @Test func utf8KeepsEverythingPrintable() {
        #expect(TextCharset.utf8.fold("Sigur Rós 日本\t") == "Sigur Rós 日本 ")
    }

    @Test func sortKeysIgnoreCaseAccentsAndArticles() {
        #expect(SortKey.make("The Beatles") == SortKey.make("beatles"))
        #expect(SortKey.make("Björk") == SortKey.make("bjork"))
        #expect(SortKey.make("A") == SortKey.make("a"))  // an article alone is a name
        #expect(SortKey.initial(of: "The Cure") == "C")
        #expect(SortKey.initial(of: "2Pac") == "#")
        #expect(SortKey.initial(of: "Élan") == "E")
    }
}
