print("clickwheel")
