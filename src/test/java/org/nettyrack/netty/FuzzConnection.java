package org.nettyrack.netty;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.FileRegion;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.channel.socket.ChannelInputShutdownEvent;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpRequest;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.nettyrack.core.config.ServerConfig;

/**
 * One fuzz input played as one client connection against the real pipeline
 * ({@link PipelineHarness}), app replaced by {@link RecordingApp}. The input is what the client
 * sends, cut into separate reads where it holds {@code <<read>>}; at {@code <<idle>>} the client
 * also goes quiet past every timeout. Between reads the app runs the requests submitted so far
 * (so pipelined requests queue up as they do on a busy server); after the last read the client
 * half-closes, as {@code printf ... | nc} does. Then every connection-level invariant is
 * checked: no leak, no stuck state, no temp file left, responses well-framed.
 *
 * <p>Limits are small (256-byte request line, 1 KiB header block, 16 fields, 1 KiB body, bodies
 * over 64 bytes spooled to a temp file) so that short inputs reach every refusal path.
 */
final class FuzzConnection {
    static final byte[] READ = "<<read>>".getBytes(StandardCharsets.US_ASCII);
    static final byte[] IDLE = "<<idle>>".getBytes(StandardCharsets.US_ASCII);
    private static final String TEMP_FILES = "nettyrack-body-*.tmp";

    private final Violations violations = new Violations();
    private final RecordingApp app = new RecordingApp(violations);
    private final ArrayDeque<Runnable> workers = new ArrayDeque<>();
    private final TrackingAllocator alloc = new TrackingAllocator();
    private final ByteArrayOutputStream sent = new ByteArrayOutputStream();
    private final ByteArrayOutputStream written = new ByteArrayOutputStream();
    private final ByteArrayOutputStream errorLog = new ByteArrayOutputStream();
    /** HTTP/1.1 only: the invariants read HTTP/1.1 responses (h2c: Http2SupportTest). */
    private final ServerConfig config = ServerConfig.builder().http2(false)
        .maxUriLength(256).maxHeaderSize(1024).maxHeaders(16).maxBodySize(1024).bodyBufferSize(64)
        .errorLog(errorLog).accessLog(OutputStream.nullOutputStream()).build();
    private final EmbeddedChannel channel;
    /** Request heads as the decoder produced them, and as they reached the exchange (body collector, then dispatcher). */
    private final List<HttpRequest> decoded = new ArrayList<>();
    private final List<HttpRequest> dispatched = new ArrayList<>();
    /** Whether the server may close without a Connection: close response (timeouts, half-close). */
    private boolean quietCloseAllowed;

    private FuzzConnection() {
        channel = new PipelineHarness(config, app, workers::add).channel;
        channel.config().setAllocator(alloc);
        channel.freezeTime();
        channel.pipeline().addAfter("decoder", "fuzz-decoded", new Probe(decoded, false));
        channel.pipeline().addBefore("body", "fuzz-dispatched", new Probe(dispatched, true));
    }

    /** Plays {@code input} and returns the invariants it broke. */
    static Violations play(byte[] input) {
        Set<Path> tempBefore = tempFiles();
        FuzzConnection connection = new FuzzConnection();
        connection.send(input);
        connection.finish(tempBefore);
        return connection.violations;
    }

    private void send(byte[] input) {
        int start = 0;
        boolean idle = false;
        for (int i = 0; i <= input.length; i++) {
            boolean read = i <= input.length - READ.length && matches(input, i, READ);
            boolean quiet = !read && i <= input.length - IDLE.length && matches(input, i, IDLE);
            if (!read && !quiet && i < input.length) {
                continue;
            }
            if (!deliver(input, start, i - start, idle)) {
                return;
            }
            idle = quiet;
            start = i + READ.length;
            i = start - 1;
        }
    }

    /** One read of the client, after the app ran what it had. False once the connection is closed. */
    private boolean deliver(byte[] input, int offset, int length, boolean idleFirst) {
        if (!runApp()) {
            return false;
        }
        if (idleFirst) {
            quietCloseAllowed = true;
            channel.advanceTimeBy(config.timeouts().headerTimeoutMillis() + config.timeouts().keepAliveTimeoutMillis() + 1, TimeUnit.MILLISECONDS);
            channel.runScheduledPendingTasks();
            collect();
            if (!channel.isOpen()) {
                return false;
            }
            quietCloseAllowed = false;
            violations.add(Invariant.STALLED_BODY_TIMED_OUT, "still open after idling past every timeout");
        }
        if (length > 0) {
            sent.write(input, offset, length);
            channel.writeInbound(alloc.buffer(length).writeBytes(input, offset, length));
            collect();
        }
        return channel.isOpen() || closedQuietly();
    }

    /** Runs queued app work and event-loop tasks until none is left. False once closed. */
    private boolean runApp() {
        do {
            for (Runnable task; (task = workers.poll()) != null; ) {
                task.run();
            }
            channel.runPendingTasks();
            collect();
        } while (!workers.isEmpty());
        if (!channel.isOpen()) {
            return closedQuietly();
        }
        if (!channel.config().isAutoRead()) {
            violations.add(Invariant.NOT_STUCK, "reading paused with nothing left for the app to do");
        }
        return true;
    }

    private void finish(Set<Path> tempBefore) {
        runApp(); // as a worker would, even when the connection closed meanwhile
        if (channel.isOpen()) {
            quietCloseAllowed = true;
            channel.pipeline().fireUserEventTriggered(ChannelInputShutdownEvent.INSTANCE);
            runApp();
        }
        boolean closed = !channel.isOpen();
        if (!closed) {
            violations.add(Invariant.NOT_STUCK, "still open after the client half-closed and the app finished");
            channel.close();
        }
        collect();
        channel.finishAndReleaseAll();
        if (errorLog.size() > 0) {
            violations.add(Invariant.NO_INTERNAL_ERROR, RecordingApp.escape(errorLog.toString(StandardCharsets.UTF_8)));
        }
        if (alloc.unreleased() > 0) {
            violations.add(Invariant.NO_LEAK, alloc.unreleased() + " of " + alloc.allocations() + " buffers never released");
        }
        Set<Path> left = tempFiles();
        left.removeAll(tempBefore);
        if (!left.isEmpty()) {
            violations.add(Invariant.TEMP_FILES_DELETED, left.toString());
            left.forEach(FuzzConnection::delete);
        }
        ResponseStreamCheck.check(written.toByteArray(), expectedAnswers(), app.seen().size(), closed, violations);
        Rfc9112Reader.compare(sent.toByteArray(), app.seen(), violations);
    }

    /**
     * Who should answer each decoded request, in order: the app (its index among the requests
     * the app saw, which are the dispatched ones in order) or the server itself (-1).
     */
    private List<ResponseStreamCheck.Due> expectedAnswers() {
        List<ResponseStreamCheck.Due> due = new ArrayList<>();
        int appCount = app.seen().size();
        for (HttpRequest request : decoded) {
            int index = -1;
            for (int i = 0; i < dispatched.size() && i < appCount; i++) {
                if (dispatched.get(i) == request) {
                    index = i;
                }
            }
            due.add(new ResponseStreamCheck.Due(index, HttpMethod.HEAD.equals(request.method())));
        }
        return due;
    }

    /** Records a close that came without warning where none is allowed. Always false. */
    private boolean closedQuietly() {
        if (!quietCloseAllowed && !lastResponseSaidClose()) {
            violations.add(Invariant.CLOSE_ANNOUNCED, "closed after: "
                + RecordingApp.escape(tail(written.toString(StandardCharsets.ISO_8859_1))));
        }
        quietCloseAllowed = true;
        return false;
    }

    private boolean lastResponseSaidClose() {
        String out = written.toString(StandardCharsets.ISO_8859_1);
        int last = out.lastIndexOf("HTTP/1.1 ");
        int end = last < 0 ? -1 : out.indexOf("\r\n\r\n", last);
        return end > 0 && out.substring(last, end).toLowerCase(java.util.Locale.ROOT).contains("\r\nconnection: close");
    }

    private static String tail(String s) {
        return s.length() <= 200 ? s : s.substring(s.length() - 200);
    }

    /** Moves what the server wrote into {@link #written}. */
    private void collect() {
        for (Object msg; (msg = channel.readOutbound()) != null; ) {
            if (msg instanceof ByteBuf buf) {
                byte[] bytes = new byte[buf.readableBytes()];
                buf.readBytes(bytes);
                written.writeBytes(bytes);
                buf.release();
            } else {
                if (msg instanceof FileRegion region) {
                    region.release();
                }
                violations.add(Invariant.RESPONSE_SYNTAX, "the server wrote a " + msg.getClass().getSimpleName());
            }
        }
    }

    private static boolean matches(byte[] input, int at, byte[] marker) {
        for (int j = 0; j < marker.length; j++) {
            if (input[at + j] != marker[j]) {
                return false;
            }
        }
        return true;
    }

    static Set<Path> tempFiles() {
        Set<Path> files = new HashSet<>();
        try (DirectoryStream<Path> dir = Files.newDirectoryStream(Path.of(System.getProperty("java.io.tmpdir")), TEMP_FILES)) {
            dir.forEach(files::add);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return files;
    }

    private static void delete(Path file) {
        try {
            Files.deleteIfExists(file);
        } catch (IOException ignored) {
            // Reported already; a leftover file must not hide the report.
        }
    }

    /**
     * A pass-through handler that notes the request heads going by; the one before the
     * body collector also reports exceptions from the handlers upstream.
     */
    private final class Probe extends ChannelInboundHandlerAdapter {
        private final List<HttpRequest> heads;
        private final boolean exceptions;

        Probe(List<HttpRequest> heads, boolean exceptions) {
            this.heads = heads;
            this.exceptions = exceptions;
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            if (msg instanceof HttpRequest request) {
                heads.add(request);
            }
            ctx.fireChannelRead(msg);
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            if (exceptions) {
                violations.add(Invariant.NO_EXCEPTION, cause.toString());
            }
            ctx.fireExceptionCaught(cause);
        }
    }
}
