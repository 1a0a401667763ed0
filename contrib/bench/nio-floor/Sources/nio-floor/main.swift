// nio-floor SOCKET ANSWER-FILE
//
// The least a server on SwiftNIO does for an MPD request: the greeting, then, for every line it
// receives, the bytes of ANSWER-FILE (ClickWheel's own `status` answer, saved by socket_bench.py).
// Nothing is parsed, looked up or formatted. It is set up as ClickWheel's control server is: one
// event loop thread, a Unix socket, one handler that writes one reused buffer per read. What it costs
// per request is what SwiftNIO costs before any of ClickWheel's code runs.
import Foundation
import NIOCore
import NIOPosix

final class CannedAnswers: ChannelInboundHandler, @unchecked Sendable {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    let answer: [UInt8]
    var output = ByteBufferAllocator().buffer(capacity: 0)

    init(answer: [UInt8]) { self.answer = answer }

    func channelActive(context: ChannelHandlerContext) {
        output.clear()
        output.writeString("OK MPD 0.23.5\n")
        context.writeAndFlush(wrapOutboundOut(output), promise: nil)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        var lines = 0
        unwrapInboundIn(data).withUnsafeReadableBytes { for byte in $0 where byte == UInt8(ascii: "\n") { lines += 1 } }
        output.clear()
        for _ in 0..<lines { output.writeBytes(answer) }
        if output.readableBytes > 0 { context.writeAndFlush(wrapOutboundOut(output), promise: nil) }
    }
}

let arguments = CommandLine.arguments
guard arguments.count == 3, let answer = FileManager.default.contents(atPath: arguments[2]) else {
    FileHandle.standardError.write(Data("usage: nio-floor SOCKET ANSWER-FILE\n".utf8))
    exit(2)
}
let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
let channel = try ServerBootstrap(group: group)
    .serverChannelOption(.backlog, value: 64)
    .childChannelInitializer { channel in
        channel.eventLoop.makeCompletedFuture {
            try channel.pipeline.syncOperations.addHandler(CannedAnswers(answer: Array(answer)))
        }
    }
    .bind(unixDomainSocketPath: arguments[1], cleanupExistingSocketFile: true).wait()
try channel.closeFuture.wait()
