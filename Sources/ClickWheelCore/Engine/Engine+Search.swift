/// Music → Search: pick letters with the wheel, select to add one, previous to delete; results below.
///
/// Line 0 is the editor ("QUE[R]"); the results of `BrowseList.search` follow it. While the cursor is
/// on line 0 the wheel moves the letter picker (keymap context `search`); picking "OK" moves the
/// cursor into the results, where the wheel scrolls as in any list and scrolling back up returns
/// to the editor.
extension Engine {
    /// The search state of the page on screen, nil when it is not Search.
    var searchState: SearchState? {
        if case .search(let state) = top.destination { return state }
        return nil
    }

    private mutating func setSearch(_ state: SearchState) {
        stack[stack.count - 1].destination = .search(state)
    }

    /// The results source of a query.
    static func searchSource(_ state: SearchState) -> ListSource {
        .library(.search(state.query))
    }

    /// The number of result rows (none before the first letter).
    mutating func searchResultCount(_ state: SearchState) -> Int {
        state.query.isEmpty ? 0 : count(of: Self.searchSource(state))
    }

    /// The wheel on the editor line: moves the picker, wrapping round the alphabet.
    mutating func movePicker(by steps: Int) -> [Effect] {
        guard var state = searchState else { return [] }
        let n = SearchState.alphabet.count
        state.picker = ((state.picker + steps) % n + n) % n
        setSearch(state)
        screen.selectedSince = now
        return settings.clicker == .off ? [] : [.click(settings.clicker)]
    }

    mutating func deleteLetter() -> [Effect] {
        guard var state = searchState, !state.query.isEmpty else { return [] }
        state.query.removeLast()
        setSearch(state)
        return []
    }

    /// Select on Search: adds the picked letter, "OK" goes to the results, a result opens or plays.
    mutating func selectInSearch(_ state: SearchState) -> [Effect] {
        var state = state
        if top.cursor == 0 {
            if state.picked == "OK" {
                if searchResultCount(state) > 0 { _ = scroll(by: 1) }
                return []
            }
            state.query += state.picked
            setSearch(state)
            return []
        }
        let source = Self.searchSource(state)
        guard let row = row(top.cursor - 1, of: source) else { return [] }
        if let destination = MenuCatalog.destination(of: row, in: source) {
            push(destination)
            return []
        }
        // A song plays with the other songs found, from itself.
        guard case .library(let list) = source, let ids = try? library.trackIDs(of: list),
            let index = ids.firstIndex(of: row.id)
        else { return [] }
        return startQueue(ids, at: index, shuffle: settings.shuffle) + showNowPlaying()
    }
}
