// The one HTTP client of the podcast module: AsyncHTTPClient on the caller's event loop group (the
// service's only one; this module never makes a group), shared by the feed fetcher and the downloader.
import AsyncHTTPClient
import Foundation
public import NIOCore
import NIOHTTP1
import NIOPosix

/// An HTTP client for feeds and episodes. Call `shutdown()` before the event loop group shuts down.
public final class PodcastHTTP: Sendable {
    let client: HTTPClient
    /// The most redirects one request follows (a chain longer than this is `FetchError.tooManyRedirects`).
    public let maxRedirects: Int
    let userAgent: String

    /// - Parameters:
    ///   - group: the service's event loop group.
    ///   - readTimeout: the longest a response may go without a byte (a stalled server); a whole feed fetch
    ///     has its own deadline besides (`FeedFetcher.fetch`'s `timeout`).
    ///   - maxDecompressedBytes: the most a gzip- or deflate-encoded response may inflate to (AsyncHTTPClient
    ///     stops it there); feeds are the only responses asked for compressed.
    public init(
        group: any EventLoopGroup, readTimeout: TimeAmount = .seconds(30), connectTimeout: TimeAmount = .seconds(15),
        maxRedirects: Int = 8, maxDecompressedBytes: Int = FeedParser.defaultCap,
        userAgent: String = "ClickWheel-podcasts/1"
    ) {
        var configuration = HTTPClient.Configuration(
            redirectConfiguration: .disallow,  // followed here, to see each hop (301s, loops)
            timeout: .init(connect: connectTimeout, read: readTimeout),
            decompression: .enabled(limit: .size(maxDecompressedBytes)))
        configuration.httpVersion = .http1Only
        // A server that refuses or cannot be reached fails the request at once, with its reason: the service
        // retries a failed feed with its own backoff. (AsyncHTTPClient would otherwise retry the connection
        // until the connect timeout and report a timeout, whatever the cause.)
        configuration.connectionPool.retryConnectionEstablishment = false
        client = HTTPClient(eventLoopGroupProvider: .shared(group), configuration: configuration)
        self.maxRedirects = maxRedirects
        self.userAgent = userAgent
    }

    public func shutdown() async throws {
        try await client.shutdown()
    }

    /// Shuts the client down from a thread that may block (not an event loop, not the cooperative pool):
    /// for an owner that never got to run, such as a service whose start failed.
    @available(*, noasync, message: "blocks: use shutdown()")
    public func syncShutdown() throws {
        try client.syncShutdown()
    }

    /// A response after following redirects, where it came from, and whether every hop was permanent.
    struct Followed {
        var response: HTTPClientResponse
        var url: String
        var permanent: Bool
        var redirected: Bool
    }

    /// GET `url` with `headers`, following 301, 302, 303, 307 and 308 up to `maxRedirects` hops; a URL met
    /// twice is a loop. The response's body is not read yet.
    func get(_ url: String, headers: HTTPHeaders, deadline: NIODeadline) async throws(FetchError) -> Followed {
        var current = url
        var seen: Set<String> = [url]
        var permanent = true
        var hops = 0
        while true {
            guard let parsed = URL(string: current), let scheme = parsed.scheme?.lowercased(), scheme == "http" || scheme == "https",
                parsed.host != nil
            else { throw .badURL(current) }
            var request = HTTPClientRequest(url: current)
            request.headers = headers
            request.headers.replaceOrAdd(name: "User-Agent", value: userAgent)
            let response: HTTPClientResponse
            do {
                response = try await client.execute(request, deadline: deadline)
            } catch {
                throw FetchError(error, connectingTo: parsed)
            }
            let code = response.status.code
            guard [301, 302, 303, 307, 308].contains(code) else {
                return Followed(response: response, url: current, permanent: permanent && hops > 0, redirected: hops > 0)
            }
            guard let location = response.headers.first(name: "Location"),
                let next = URL(string: location.trimmed, relativeTo: parsed)?.absoluteURL.absoluteString
            else { throw .httpStatus(Int(code), "a redirect without a usable Location") }
            hops += 1
            if !(code == 301 || code == 308) { permanent = false }
            guard seen.insert(next).inserted else { throw .redirectLoop(next) }
            guard hops <= maxRedirects else { throw .tooManyRedirects(maxRedirects) }
            current = next
        }
    }
}

/// Why a fetch or a download's request failed. One line each (`description`).
public enum FetchError: Error, Sendable, Hashable, CustomStringConvertible {
    case badURL(String)
    case redirectLoop(String)
    case tooManyRedirects(Int)
    case httpStatus(Int, String)
    case tooLarge(cap: Int64)
    case timedOut
    case cancelled
    case network(String)

    public var description: String {
        switch self {
        case .badURL(let url): "not an http or https URL: \(url)"
        case .redirectLoop(let url): "the redirects go round in a loop (back to \(url))"
        case .tooManyRedirects(let limit): "more than \(limit) redirects"
        case .httpStatus(let code, let reason): "the server answered \(code) \(reason)"
        case .tooLarge(let cap): "the response is larger than the limit of \(cap) bytes"
        case .timedOut: "the server did not answer in time"
        case .cancelled: "cancelled"
        case .network(let reason): "network error: \(reason)"
        }
    }

    /// A request to `url` that failed: as `init(_:)`, and a connection that could not be made says so with
    /// the host and the system's reason ("cannot connect to HOST:PORT: Connection refused", "cannot resolve
    /// HOST: …"), without SwiftNIO's wrapping (a `NIOConnectionError` for a name, an `IOError` for an address).
    init(_ error: any Error, connectingTo url: URL) {
        let host = url.host ?? "?"
        let port = url.port ?? (url.scheme?.lowercased() == "https" ? 443 : 80)
        func reason(_ e: any Error) -> String {
            if let io = e as? IOError { return String(cString: strerror(io.errnoCode)) }
            return String(describing: e)
        }
        if let connect = error as? NIOConnectionError {
            if let dns = connect.dnsAError ?? connect.dnsAAAAError {
                self = .network("cannot resolve \(host): \(dns)")
                return
            }
            let reasons = Array(Set(connect.connectionErrors.map { reason($0.error) })).sorted().joined(separator: "; ")
            self = .network("cannot connect to \(host):\(port)" + (reasons.isEmpty ? "" : ": \(reasons)"))
        } else if let io = error as? IOError {
            // Connecting is what fails with these; any other (a reset mid-answer) is the connection's.
            let connecting = [ECONNREFUSED, ENETUNREACH, EHOSTUNREACH, ETIMEDOUT, EADDRNOTAVAIL].contains(io.errnoCode)
            self = .network((connecting ? "cannot connect to" : "the connection to") + " \(host):\(port)" + (connecting ? "" : " failed") + ": \(reason(io))")
        } else {
            self.init(error)
        }
    }

    init(_ error: any Error) {
        if let known = error as? FetchError {
            self = known
        } else if error is CancellationError {
            self = .cancelled
        } else if let http = error as? HTTPClientError {
            switch http {
            case .readTimeout, .connectTimeout, .deadlineExceeded, .tlsHandshakeTimeout, .getConnectionFromPoolTimeout:
                self = .timedOut
            case .cancelled: self = .cancelled
            case .remoteConnectionClosed: self = .network("the server closed the connection")
            default: self = .network(String(describing: http))
            }
        } else if String(reflecting: type(of: error)).hasSuffix("DecompressionError") {
            // NIOHTTPDecompression's limit (swift-nio-extras, not imported for this one type).
            self = .tooLarge(cap: -1)
        } else {
            self = .network(String(describing: error))
        }
    }
}
