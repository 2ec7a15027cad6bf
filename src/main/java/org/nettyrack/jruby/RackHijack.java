package org.nettyrack.jruby;

import java.io.IOException;
import org.jruby.Ruby;
import org.jruby.RubyArray;
import org.jruby.RubyClass;
import org.jruby.RubyHash;
import org.jruby.RubyNumeric;
import org.jruby.RubyString;
import org.jruby.exceptions.RaiseException;
import org.jruby.runtime.Block;
import org.jruby.runtime.CallBlock;
import org.jruby.runtime.Signature;
import org.jruby.runtime.ThreadContext;
import org.jruby.runtime.builtin.IRubyObject;
import org.nettyrack.core.Hijack;
import org.nettyrack.core.ResponseSink;

/**
 * {@code rack.hijack} on the Ruby side, for requests whose transport can hand over its
 * connection ({@code RackRequest#hijackable}). Rack 3 SPEC: "rack.hijack?: If present and
 * true, indicates that the server supports partial hijacking"; "rack.hijack: If present, an
 * object responding to call that is used to perform a full hijack" and returns the IO (also
 * left in {@code rack.hijack_io}, as Rack 2 had it); a {@code rack.hijack} response header
 * "must respond to call" and is called with the IO once the server has written the head.
 *
 * <p>The IO is a real {@code TCPSocket} (IO.select and nio4r need a file descriptor): this
 * class listens on an ephemeral loopback port ({@code TCPServer}, on the worker thread), the
 * transport connects its end ({@link Hijack#connect}), and the accepted socket whose peer is
 * that end becomes the application's; {@link Hijack#start} then moves bytes between the
 * transport's end and the client. The listener is closed at once.
 */
final class RackHijack {
    private static final String LOOPBACK = "127.0.0.1";
    /** Connections to the listener from elsewhere, in the moment it is open, tolerated before giving up. */
    private static final int ACCEPT_ATTEMPTS = 8;

    private final Ruby runtime;
    private final EnvKeys keys;
    private final RubyString hijackIo;
    private volatile RubyClass tcpServer;

    RackHijack(Ruby runtime, EnvKeys keys) {
        this.runtime = runtime;
        this.keys = keys;
        this.hijackIo = keys.key("rack.hijack_io");
    }

    /** Sets {@code rack.hijack?} and {@code rack.hijack} in the env of a request that can be hijacked. */
    Offer offer(ThreadContext context, RubyHash env, ResponseSink sink) {
        Offer offer = new Offer(sink);
        Block block = CallBlock.newCallClosure(context, env, Signature.NO_ARGUMENTS,
            (ctx, args, blk) -> offer.full(ctx, env));
        env.op_aset(context, keys.rackHijackP, runtime.getTrue());
        env.op_aset(context, keys.rackIsHijack, runtime.newProc(Block.Type.LAMBDA, block));
        return offer;
    }

    /**
     * For an HTTP/2 extended CONNECT: no {@code rack.hijack} in the env (the connection carries
     * other streams), only the stream, for a {@code rack.protocol} answer.
     */
    Offer protocolOnly(ResponseSink sink) {
        return new Offer(sink);
    }

    /** One request's hijack: taken at most once, fully by the app or partially by its response header. */
    final class Offer {
        private final ResponseSink sink;
        private IRubyObject io;

        private Offer(ResponseSink sink) {
            this.sink = sink;
        }

        /** Whether the application took the connection: then the server sends nothing. */
        boolean taken() {
            return io != null;
        }

        private IRubyObject full(ThreadContext context, RubyHash env) {
            if (io == null) {
                if (sink.committed()) {
                    throw runtime.newIOError("rack.hijack: the response has already started");
                }
                io = open(context, sink.hijack(0, null));
                env.op_aset(context, hijackIo, io);
            }
            return io;
        }

        /**
         * Rack 3.1's {@code rack.protocol} response header: on HTTP/1.1 a 101 with {@code
         * upgrade} naming the protocol, on an HTTP/2 extended CONNECT a 200 (RFC 8441); then the
         * streaming body is called with the connection (the stream) as a full-duplex IO, the
         * same a partial hijack gets. The protocol must be one the client offered ({@code
         * env['rack.protocol']}), and the body must respond to {@code call}; otherwise nothing
         * is sent and the app's error is a 500. Answers the status sent.
         */
        int switchProtocols(ThreadContext context, ResponseHeadersReader.Result head, ResponseBody body,
                            IRubyObject offered, String httpVersion) {
            String protocol = head.protocol instanceof RubyString ? head.protocol.toString() : null;
            if (protocol == null || !(offered instanceof RubyArray<?> list) || !list.includes(context, head.protocol)) {
                throw new InvalidResponse("rack.protocol " + head.protocol.inspect()
                    + " is not one the client offered (env['rack.protocol'] is " + (offered == null ? "absent" : offered.inspect()) + ")");
            }
            if (!body.value.respondsTo("call")) {
                throw new InvalidResponse("a rack.protocol response needs a streaming body (one that responds to call), got "
                    + body.value.getMetaClass().getName());
            }
            head.headers.remove("upgrade");
            head.headers.remove("connection");
            int status = 200;
            if (httpVersion.startsWith("HTTP/1")) {
                status = 101;
                head.headers.add("connection", "upgrade");
                head.headers.add("upgrade", protocol);
            }
            io = open(context, sink.hijack(status, head.headers));
            body.value.callMethod(context, "call", io);
            return status;
        }

        /** Partial hijack: the head goes out, then the response header's callable gets the IO. */
        void partial(ThreadContext context, int status, ResponseHeadersReader.Result head) {
            io = open(context, sink.hijack(status, head.headers));
            head.hijack.callMethod(context, "call", io);
        }
    }

    private IRubyObject open(ThreadContext context, Hijack hijack) {
        IRubyObject server = null;
        boolean started = false;
        try {
            server = tcpServer(context).callMethod(context, "new",
                new IRubyObject[] {runtime.newString(LOOPBACK), runtime.newFixnum(0)});
            int port = port(context, server, "local_address");
            int from = hijack.connect(LOOPBACK, port);
            for (int i = 0; i < ACCEPT_ATTEMPTS; i++) {
                IRubyObject io = server.callMethod(context, "accept");
                if (port(context, io, "remote_address") == from) {
                    noDelay(context, io);
                    hijack.start();
                    started = true;
                    return io;
                }
                io.callMethod(context, "close");
            }
            throw runtime.newIOError("rack.hijack: the loopback listener was taken by other connections");
        } catch (IOException e) {
            throw runtime.newIOError("rack.hijack: " + e.getMessage());
        } finally {
            if (!started) {
                hijack.cancel();
            }
            if (server != null) {
                try {
                    server.callMethod(context, "close");
                } catch (RaiseException ignored) {
                    // closing a listener nobody else uses cannot matter to the application
                }
            }
        }
    }

    private static int port(ThreadContext context, IRubyObject socket, String which) {
        return RubyNumeric.fix2int(socket.callMethod(context, which).callMethod(context, "ip_port"));
    }

    /** Small writes (WebSocket frames) must not wait for the loopback's delayed ACKs. */
    private void noDelay(ThreadContext context, IRubyObject io) {
        RubyClass socket = runtime.getClass("Socket");
        io.callMethod(context, "setsockopt", new IRubyObject[] {
            socket.getConstant("IPPROTO_TCP"), socket.getConstant("TCP_NODELAY"), runtime.getTrue()});
    }

    private RubyClass tcpServer(ThreadContext context) {
        RubyClass found = tcpServer;
        if (found == null) {
            runtime.getLoadService().require("socket");
            found = runtime.getClass("TCPServer");
            tcpServer = found;
        }
        return found;
    }
}
