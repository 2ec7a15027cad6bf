package org.nettyrack.netty;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.StandardOpenOption;
import org.nettyrack.core.ResponseHeaders;
import org.nettyrack.core.files.FileOptions;
import org.nettyrack.core.files.FileResponse;
import org.nettyrack.core.files.PublicDir;

/**
 * {@code --public DIR}: answers GET and HEAD for files under the directory on the event loop,
 * through the request's {@link NettyResponseSink}, so the application (and Ruby) never sees
 * them; {@link PublicDir} decides what a path names and refuses what would leave the
 * directory, {@link FileResponse} the status and headers, {@link FileBodies} sends the bytes.
 * Anything else goes on to the application. {@link RackDispatcher} asks before it hands a
 * request to the workers, so pipelined answers keep their order.
 */
final class PublicFiles {
    /** Files up to this size go out in the response's one write. */
    static final int SMALL = 16 * 1024;
    private final PublicDir dir;
    private final FileOptions options;

    private PublicFiles(PublicDir dir, FileOptions options) {
        this.dir = dir;
        this.options = options;
    }

    /** The public files of these options, or null when there is no public directory. */
    static PublicFiles of(FileOptions options) {
        if (options.publicDir() == null) {
            return null;
        }
        try {
            return new PublicFiles(new PublicDir(options.publicDir(), options.dotfiles()), options);
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
        PublicDir.Lookup lookup = dir.lookup(target);
        switch (lookup.found()) {
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
            send(sink, FileResponse.forPublic(lookup.file(), path(target), request::header, get, options.cacheControl()));
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
        if (answer.length() <= SMALL) { // one read, one write: cheaper than a region and its own flush
            byte[] bytes = read(answer);
            sink.respond(answer.status(), answer.headers(), bytes, 0, bytes.length);
            return;
        }
        sink.begin(answer.status(), answer.headers(), answer.length());
        sink.sendFile(answer.file(), answer.offset(), answer.length());
        sink.end();
    }

    /** The region in full, or an IOException when the file is shorter now than it was. */
    private static byte[] read(FileResponse answer) throws IOException {
        ByteBuffer bytes = ByteBuffer.allocate((int) answer.length());
        try (FileChannel in = FileChannel.open(answer.file(), StandardOpenOption.READ)) {
            while (bytes.hasRemaining()) {
                if (in.read(bytes, answer.offset() + bytes.position()) < 0) {
                    throw new IOException("file truncated while read: " + answer.file());
                }
            }
        }
        return bytes.array();
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
