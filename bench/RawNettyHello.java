// A minimal Netty 4.2 HTTP/1.1 keep-alive "Hello, World!" server: the upper limit of the
// nettyrack stack (same transport, same codec, no Ruby). bench/run starts it with Java's
// single-file source launcher against the jars nettyrack itself ships:
//
//   java -cp "lib/nettyrack/jars/*" bench/RawNettyHello.java PORT [HOST]
//
// It answers every request with 200, "content-type: text/plain" and the body "Hello, World!"
// (the same as bench/hello.ru), using epoll when the native transport loads and NIO otherwise.

import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.ServerChannel;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpObject;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.codec.http.HttpServerKeepAliveHandler;
import io.netty.handler.codec.http.HttpVersion;
import java.nio.charset.StandardCharsets;

public final class RawNettyHello {
    private static final byte[] BODY = "Hello, World!".getBytes(StandardCharsets.US_ASCII);
    private static final ByteBuf BODY_BUF =
        Unpooled.unreleasableBuffer(Unpooled.directBuffer(BODY.length).writeBytes(BODY)).asReadOnly();

    @ChannelHandler.Sharable
    static final class HelloHandler extends SimpleChannelInboundHandler<HttpObject> {
        @Override
        protected void channelRead0(ChannelHandlerContext ctx, HttpObject msg) {
            // One response per request head; body chunks (none for GET) are released unread.
            if (!(msg instanceof HttpRequest)) {
                return;
            }
            FullHttpResponse res = new DefaultFullHttpResponse(
                HttpVersion.HTTP_1_1, HttpResponseStatus.OK, BODY_BUF.duplicate());
            res.headers()
                .set(HttpHeaderNames.CONTENT_TYPE, "text/plain")
                .setInt(HttpHeaderNames.CONTENT_LENGTH, BODY.length);
            // HttpServerKeepAliveHandler adds "connection: keep-alive" for HTTP/1.0 clients that
            // asked for it and closes the connection after the response when keep-alive is off.
            ctx.writeAndFlush(res);
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            ctx.close();
        }
    }

    public static void main(String[] args) throws Exception {
        int port = args.length > 0 ? Integer.parseInt(args[0]) : 8080;
        String host = args.length > 1 ? args[1] : "127.0.0.1";

        boolean epoll = Epoll.isAvailable();
        IoHandlerFactory io = epoll ? EpollIoHandler.newFactory() : NioIoHandler.newFactory();
        Class<? extends ServerChannel> channel =
            epoll ? EpollServerSocketChannel.class : NioServerSocketChannel.class;

        EventLoopGroup boss = new MultiThreadIoEventLoopGroup(1, io);
        EventLoopGroup workers = new MultiThreadIoEventLoopGroup(io); // 2 x cores threads
        HelloHandler hello = new HelloHandler();
        try {
            Channel server = new ServerBootstrap()
                .group(boss, workers)
                .channel(channel)
                .option(ChannelOption.SO_BACKLOG, 1024)
                .childOption(ChannelOption.TCP_NODELAY, true)
                .childHandler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        ch.pipeline()
                            .addLast(new HttpServerCodec())
                            .addLast(new HttpServerKeepAliveHandler())
                            .addLast(hello);
                    }
                })
                .bind(host, port).sync().channel();
            System.out.println("RawNettyHello listening on http://" + host + ":" + port
                + " (" + (epoll ? "epoll" : "nio") + ")");
            server.closeFuture().sync();
        } finally {
            boss.shutdownGracefully();
            workers.shutdownGracefully();
        }
    }
}
