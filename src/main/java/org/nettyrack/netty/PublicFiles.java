package org.nettyrack.netty;

import java.io.IOException;
import java.util.concurrent.TimeUnit;
import org.nettyrack.core.ResponseHeaders;
import org.nettyrack.core.ServerConfig;
import org.nettyrack.core.files.FileOptions;
import org.nettyrack.core.files.FileResponse;
import org.nettyrack.core.files.PublicDir;
import org.nettyrack.core.files.PublicFileCache;

/**
 * {@code --public DIR}: answers GET and HEAD for files under the directory on the event loop,
 * through the request's {@link NettyResponseSink}, so the application (and Ruby) never sees
 * them; {@link PublicDir} decides what a path names and refuses what would leave the
 * directory, {@link PublicFileCache} keeps that and the file's facts (and a small file's bytes)
 * for {@code --file-cache} seconds, {@link FileResponse} decides the status and headers,
 * and a small file goes out from memory, a larger one through {@link FileBodies}.
 * Anything else goes on to the application. {@link RackDispatcher} asks before it hands a
 * request to the workers, so pipelined answers keep their order.
 */
final class PublicFiles {
    private final PublicFileCache cache;
    private final FileOptions options;

    private PublicFiles(PublicFileCache cache, FileOptions options) {
        this.cache = cache;
        this.options = options;
    }

    /** The public files of this server, or null when it has no public directory. */
    static PublicFiles of(ServerConfig config) {
        FileOptions options = config.files();
        if (options.publicDir() == null) {
            return null;
        }
        try {
            PublicDir dir = new PublicDir(options.publicDir(), options.dotfiles());
            return new PublicFiles(new PublicFileCache(dir, TimeUnit.MILLISECONDS.toNanos(config.fileCacheMillis()),
                config.fileCacheEntries()), options);
        } catch (IOException e) {
            throw new IllegalArgumentException("public directory: " + e.getMessage(), e);
        }
    }

    /** Answers the request when it is for a public file (or refused); false to run the application. */
    boolean serve(NettyRackRequest request, NettyResponseSink sink) {
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
        try {
            send(sink, FileResponse.forPublic(found.file(), path(target), request::header, get, options.cacheControl()));
        } catch (IOException e) {
            if (sink.committed()) {
                sink.abort();
            } else {
                plain(sink, 404, "Not Found\n"); // gone between the lookup and the open
            }
        }
        return true;
    }

    private static void send(NettyResponseSink sink, FileResponse answer) throws IOException {
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

    private static void plain(NettyResponseSink sink, int status, String text) {
        ResponseHeaders headers = new ResponseHeaders();
        headers.add("content-type", "text/plain; charset=utf-8");
        byte[] body = text.getBytes(java.nio.charset.StandardCharsets.US_ASCII);
        sink.respond(status, headers, body, 0, body.length);
    }

    private static String path(String target) {
        int query = target.indexOf('?');
        return query >= 0 ? target.substring(0, query) : target;
    }
}
