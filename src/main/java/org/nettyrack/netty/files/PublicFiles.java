package org.nettyrack.netty.files;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import org.nettyrack.core.RackRequest;
import org.nettyrack.core.ResponseHeaders;
import org.nettyrack.core.config.FileSettings;
import org.nettyrack.core.config.ServerConfig;
import org.nettyrack.core.files.FileOptions;
import org.nettyrack.core.files.FileResponse;
import org.nettyrack.core.files.PublicDir;
import org.nettyrack.core.files.PublicFile;
import org.nettyrack.core.files.PublicFileCache;
import org.nettyrack.netty.response.DateHeader;

/**
 * {@code --public DIR}: answers GET and HEAD for files under the directory on the event loop,
 * through the request's {@link EncodedSink}, so the application (and Ruby) never sees
 * them; {@link PublicDir} decides what a path names and refuses what would leave the
 * directory, {@link PublicFileCache} keeps that and the file's facts (and a small file's bytes)
 * for {@code --file-cache} seconds, {@link FileResponse} decides the status and headers,
 * and a small file goes out from memory, a larger one through {@link FileBodies}.
 * Anything else goes on to the application. {@code RackDispatcher} asks before it hands a
 * request to the workers, so pipelined answers keep their order.
 *
 * <p>The most common answer, a whole small file to a plain GET on a kept HTTP/1.1
 * connection, is the same bytes every time while the cache keeps the file: it is encoded
 * once per read of the file (head and body, as the response encoder would) into direct
 * memory, which the socket takes without a copy, and then written as it is ({@link
 * EncodedSink#respondEncoded}); with the date line of the second in it, it is encoded
 * again when the second changes. A request with a condition or a range,
 * a file with precompressed siblings, and a connection that ends or is not HTTP/1.1 get the
 * general path.
 */
public final class PublicFiles {
    /** Headers that make the answer depend on the request: never answered from {@link #encoded}. */
    private static final String[] CONDITIONS = {"range", "if-range", "if-none-match", "if-modified-since"};

    private final PublicFileCache cache;
    private final FileOptions options;
    /** By path: the encoded usual answer for the file read then (empty when the cache keeps nothing). */
    private final ConcurrentHashMap<String, Encoded> encoded = new ConcurrentHashMap<>();
    private final int maxEncoded;

    /**
     * A file's usual answer: its head up to the date line, and its body; and the whole answer
     * of the current second (head, {@code date} line, body) in direct memory, never released:
     * its memory goes with the last reference, as a direct ByteBuffer's does. A new second
     * encodes it once more (the first request of the second that asks).
     */
    private static final class Encoded {
        private record Dated(String date, ByteBuf response) {
        }

        final PublicFile file;
        private final byte[] head;
        private final FileResponse answer;
        private volatile Dated dated = new Dated(null, null);

        Encoded(PublicFile file, byte[] head, FileResponse answer) {
            this.file = file;
            this.head = head;
            this.answer = answer;
        }

        ByteBuf response() {
            DateHeader.Stamp now = DateHeader.INSTANCE.current();
            Dated kept = dated;
            if (kept.date() != now.value()) {
                byte[] end = now.endOfHead();
                ByteBuffer out = ByteBuffer.allocateDirect(head.length + end.length + bodyLength())
                    .put(head).put(end).put(answer.bytes(), (int) answer.offset(), bodyLength()).flip();
                kept = new Dated(now.value(), Unpooled.unreleasableBuffer(Unpooled.wrappedBuffer(out)));
                dated = kept;
            }
            return kept.response().duplicate();
        }

        int bodyLength() {
            return (int) answer.length();
        }
    }

    private PublicFiles(PublicFileCache cache, FileOptions options, int maxEncoded) {
        this.cache = cache;
        this.options = options;
        this.maxEncoded = maxEncoded;
    }

    /** The public files of this server, or null when it has no public directory; clock: nanoseconds, for the cache. */
    public static PublicFiles of(ServerConfig config, LongSupplier clock) {
        FileSettings settings = config.fileSettings();
        FileOptions options = settings.files();
        if (options.publicDir() == null) {
            return null;
        }
        try {
            PublicDir dir = new PublicDir(options.publicDir(), options.dotfiles());
            return new PublicFiles(new PublicFileCache(dir, TimeUnit.MILLISECONDS.toNanos(settings.fileCacheMillis()),
                settings.fileCacheEntries(), clock), options, settings.fileCacheMillis() > 0 ? settings.fileCacheEntries() : 0);
        } catch (IOException e) {
            throw new IllegalArgumentException("public directory: " + e.getMessage(), e);
        }
    }

    /** Answers the request when it is for a public file (or refused); false to run the application. */
    public boolean serve(RackRequest request, EncodedSink sink) {
        String method = request.method();
        boolean get = "GET".equals(method);
        if (!get && !"HEAD".equals(method)) {
            return false;
        }
        String target = request.target();
        PublicFileCache.Entry found;
        try {
            found = cache.get(target);
        } catch (IOException e) {
            plain(sink, 404, "Not Found\n"); // there, but not readable
            return true;
        }
        switch (found.found()) {
            case PASS:
                return false;
            case BAD_REQUEST:
                plain(sink, 400, "Bad Request\n");
                return true;
            case NOT_FOUND:
                plain(sink, 404, "Not Found\n");
                return true;
            default:
                break;
        }
        String path = PublicFileCache.pathOf(target);
        if (get && sendEncoded(path, found.file(), request, sink)) {
            return true;
        }
        try {
            send(sink, FileResponse.forPublic(found.file(), path, request::header, get, options.cacheControl()));
        } catch (IOException e) {
            if (sink.committed()) {
                sink.abort();
            } else {
                plain(sink, 404, "Not Found\n"); // gone between the lookup and the open
            }
        }
        return true;
    }

    /** The usual answer from its encoded bytes, when it applies (see the class comment); false to take the general path. */
    private boolean sendEncoded(String path, PublicFile file, RackRequest request, EncodedSink sink) {
        if (maxEncoded == 0 || file.plain().bytes() == null || file.brotli() != null || file.gzip() != null) {
            return false;
        }
        for (String condition : CONDITIONS) {
            if (request.header(condition) != null) {
                return false;
            }
        }
        Encoded kept = encoded.get(path);
        if (kept == null || kept.file != file) {
            FileResponse answer = FileResponse.forPublic(file, path, name -> null, true, options.cacheControl());
            if (answer.status() != 200 || answer.bytes() == null) {
                return false;
            }
            kept = new Encoded(file, encodeHead(answer), answer);
            if (encoded.size() >= maxEncoded && !encoded.containsKey(path)) {
                encoded.clear(); // as the cache itself does: a path scan costs time, not memory
            }
            encoded.put(path, kept);
        }
        return sink.respondEncoded(200, kept.response(), kept.bodyLength());
    }

    /**
     * A 200's head with its Content-Length, as Netty's response encoder writes it (headers in
     * order, lower case names), up to where the date line and the blank line go.
     */
    private static byte[] encodeHead(FileResponse answer) {
        StringBuilder head = new StringBuilder("HTTP/1.1 200 OK\r\n");
        for (int i = 0; i < answer.headers().size(); i++) {
            head.append(answer.headers().name(i)).append(": ").append(answer.headers().value(i)).append("\r\n");
        }
        head.append("content-length: ").append(answer.length()).append("\r\n");
        return head.toString().getBytes(StandardCharsets.ISO_8859_1);
    }

    private static void send(EncodedSink sink, FileResponse answer) throws IOException {
        if (!answer.hasBody()) {
            sink.respond(answer.status(), answer.headers(), new byte[0], 0, 0);
            return;
        }
        if (answer.bytes() != null) { // read with its facts: one write, no file system call
            sink.respond(answer.status(), answer.headers(), answer.bytes(), (int) answer.offset(), (int) answer.length());
            return;
        }
        sink.begin(answer.status(), answer.headers(), answer.length());
        sink.sendFile(answer.file(), answer.offset(), answer.length());
        sink.end();
    }

    private static void plain(EncodedSink sink, int status, String text) {
        ResponseHeaders headers = new ResponseHeaders();
        headers.add("content-type", "text/plain; charset=utf-8");
        byte[] body = text.getBytes(StandardCharsets.US_ASCII);
        sink.respond(status, headers, body, 0, body.length);
    }
}
