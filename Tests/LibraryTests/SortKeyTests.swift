import ClickWheelCore
import Testing

@Suite struct SortKeyTests {
    func sorted(_ names: [String]) -> [String] { names.sorted { SortKey.make($0) < SortKey.make($1) } }

    @Test func ignoresCaseDiacriticsAndLeadingArticles() {
        #expect(SortKey.make("The Beatles") == SortKey.make("beatles"))
        #expect(SortKey.make("Ärzte") == SortKey.make("arzte"))
        #expect(SortKey.make("A Tribe Called Quest") == SortKey.make("Tribe Called Quest"))
        #expect(SortKey.make("An Artist") == SortKey.make("artist"))
        #expect(SortKey.make("The") == SortKey.make("the"))  // an article alone is a name
        #expect(SortKey.make("Theatre") != SortKey.make("atre"))
    }

    @Test func sortTagsKeepTheirArticle() {
        #expect(SortKey.make("The The", dropArticle: false) < SortKey.make("Zappa", dropArticle: false))
        #expect(SortKey.make("The Who", dropArticle: false) != SortKey.make("Who"))
    }

    @Test func comparesNumbersAsNumbersAndPutsThemAfterLetters() {
        #expect(sorted(["10cc", "2 Unlimited", "Zappa", "abba", "Ärzte", "The Beatles"])
                == ["abba", "Ärzte", "The Beatles", "Zappa", "2 Unlimited", "10cc"])
        #expect(sorted(["Track 10", "Track 2", "Track 1"]) == ["Track 1", "Track 2", "Track 10"])
        #expect(SortKey.make("Track 007") == SortKey.make("track 7"))
    }

    @Test func otherScriptsFollowLatinAndInitialsGroupThem() {
        let names = ["Zoë", "Кино", "東京事変", "!!!", "Björk"]
        #expect(sorted(names).first == "Björk")
        #expect(sorted(names).last == "!!!")
        #expect(SortKey.initial(ofKey: SortKey.make("björk")) == "B")
        #expect(SortKey.initial(ofKey: SortKey.make("The Zombies")) == "Z")
        #expect(SortKey.initial(ofKey: SortKey.make("10cc")) == "#")
        #expect(SortKey.initial(ofKey: SortKey.make("Кино")) == "к")
        #expect(SortKey.initial(ofKey: SortKey.make("\"Weird Al\" Yankovic")) == "W")
    }
}
