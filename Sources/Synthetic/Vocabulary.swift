import Support

/// The English words of synthetic screens (the bitmap font's only language, and most apps'):
/// UI labels for titles and rows, filler words for body text. Written for ScreenLab; lengths
/// vary on purpose so Text boxes vary in width. Other languages: `Lexicon`.
enum Vocabulary {
    static let screenTitles = [
        "Home", "Settings", "Profile", "Messages", "Inbox", "Library", "Explore", "Search", "Account",
        "Notifications", "Favorites", "Orders", "Wallet", "Activity", "Photos", "Music", "Podcasts",
        "Weather", "Calendar", "Contacts", "Recipes", "Workouts", "Journal", "Trips", "Shop", "News",
        "Friends", "Downloads", "Privacy", "General", "Display", "Sounds", "Storage", "Payments",
    ]

    static let rowLabels = [
        "Wi-Fi", "Bluetooth", "Airplane Mode", "Notifications", "Dark Mode", "Location", "Face ID",
        "Auto-Lock", "Language", "Region", "Passcode", "Battery", "Privacy", "Cellular", "Hotspot",
        "Do Not Disturb", "Siri", "Accessibility", "Wallpaper", "Keyboard", "Date & Time", "About",
        "Software Update", "Background Refresh", "Mail", "Contacts", "Reminders", "Sync", "Backup",
        "Email updates", "Show previews", "Autoplay videos", "Save to Photos", "Low Data Mode",
        "Haptics", "Vibrate on Ring", "Read Receipts", "Night Shift", "True Tone", "Offline mode",
    ]

    static let names = [
        "Anna Kowalski", "Ben Carter", "Chloe Martin", "Diego Alvarez", "Emma Li", "Farid Haddad",
        "Grace Okafor", "Hiro Tanaka", "Isla Brown", "Jonas Berg", "Kara Singh", "Leo Rossi",
        "Maya Cohen", "Nils Eriksen", "Olivia Park", "Pablo Ruiz", "Quinn Adams", "Rosa Silva",
        "Sam Wilson", "Tara Nguyen", "Umar Khan", "Vera Novak", "Will Evans", "Yara Haddad", "Zoe King",
    ]

    static let buttonLabels = [
        "Continue", "Sign In", "Save", "Next", "Done", "Submit", "Get Started", "Add to Cart",
        "Subscribe", "Follow", "Send", "Apply", "Confirm", "Book Now", "Create Account", "Try Again",
    ]

    static let fieldLabels = [
        ("Email", "name@example.com"), ("Password", "Enter password"), ("Full name", "Jane Appleseed"),
        ("Phone", "+1 555 0100"), ("Address", "Street and number"), ("City", "City"), ("Username", "Choose a username"),
        ("Card number", "1234 5678 9012 3456"), ("Search", "Search"), ("Message", "Write a message..."),
        ("Promo code", "Enter code"), ("Birthday", "MM/DD/YYYY"), ("Company", "Optional"), ("Notes", "Add a note"),
    ]

    static let segmentLabels = [
        ["Day", "Week", "Month", "Year"], ["All", "Unread"], ["Popular", "New", "Nearby"], ["List", "Map"],
        ["Photos", "Videos"], ["Mine", "Shared", "All"], ["Today", "Upcoming"], ["Men", "Women", "Kids"],
    ]

    static let dialogTitles = [
        "Delete item?", "Allow notifications?", "Sign out?", "Update available", "Discard changes?",
        "Turn on Location", "Rate this app", "No connection", "Save password?", "Remove from list?",
    ]

    static let dialogButtons = [["Cancel", "Delete"], ["Don't Allow", "Allow"], ["Cancel", "Sign Out"], ["Later", "Update"],
                                ["Keep", "Discard"], ["OK"], ["Not Now", "Rate"], ["Retry"], ["Never", "Save"], ["Cancel", "Remove"]]

    static let filler = [
        "the", "a", "new", "your", "for", "with", "and", "of", "to", "in", "on", "all", "more", "best",
        "morning", "update", "weekly", "summary", "recipe", "fresh", "city", "guide", "photo", "daily",
        "coffee", "travel", "music", "quick", "easy", "healthy", "ideas", "tips", "review", "latest",
        "popular", "nearby", "events", "friends", "shared", "album", "favorite", "playlist", "running",
        "garden", "kitchen", "weekend", "project", "meeting", "notes", "report", "budget", "savings",
        "delivery", "order", "track", "discover", "collection", "season", "market", "local", "studio",
        "morning", "sunset", "mountain", "ocean", "beach", "forest", "winter", "summer", "story", "video",
        "is", "ready", "now", "available", "today", "from", "at", "by", "about", "this", "week",
    ]

    static let shortInfo = [
        "2 min ago", "Yesterday", "9:41 AM", "Mon", "3h", "Mar 14", "$12.99", "4.8", "1.2k", "New",
        "12 items", "Free", "5 km", "18 C", "On", "Off", "v2.4", "87%", "$4.50", "Today", "24",
    ]

    static let settingsTitles = ["Settings", "General", "Privacy", "Notifications", "Account", "Display"]
    static let sliderCaptions = ["Brightness", "Volume", "Text size", "Distance", "Price range", "Speed"]
    static let checkboxCaptions = ["Remember me", "I agree to the Terms", "Send me updates", "Keep me signed in", "Use as default"]
    static let signInButtons = ["Sign In", "Log In", "Continue"]
    static let loginLinks = ["Forgot password?", "Create an account"]
    static let destructive: Set<String> = ["Delete", "Discard", "Remove"]

    /// `count` filler words starting with a capital letter, e.g. a card title or a body line.
    static func phrase(_ rng: inout SeededRandom, words count: Int) -> String {
        var words: [String] = []
        for _ in 0..<max(count, 1) { words.append(filler[rng.int(in: 0..<filler.count)]) }
        words[0] = words[0].prefix(1).uppercased() + words[0].dropFirst()
        return words.joined(separator: " ")
    }

    static func pick<T>(_ list: [T], _ rng: inout SeededRandom) -> T { list[rng.int(in: 0..<list.count)] }
}
