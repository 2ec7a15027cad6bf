package org.nettyrack.jruby;

import java.io.IOException;
import java.nio.file.Path;
import org.jruby.runtime.ThreadContext;
import org.nettyrack.core.RackRequest;
import org.nettyrack.core.ResponseHeaders;
import org.nettyrack.core.ResponseSink;
import org.nettyrack.core.files.FileResponse;

/**
 * Sends a file an application answered a 200 with, a {@code to_path} body (Rack::Files,
 * Rails' {@code send_file}) or an {@code x-sendfile} header (Rack::Sendfile, when the env's
 * {@code HTTP_X_SENDFILE_TYPE} says so), under the rules {@link FileResponse#forApp} shares
 * with the public directory: Range and If-Range, If-None-Match and If-Modified-Since, ETag
 * and Last-Modified. The bytes go through {@link ResponseSink#sendFile}, the transport's file
 * sender. The body is closed before the response ends, never iterated.
 */
final class FileBodyWriter {
    private FileBodyWriter() {
    }

    /** The answer for {@code file}, or null when it is no regular file one can read. */
    static FileResponse answer(String file, ResponseHeaders headers, RackRequest request) {
        try {
            return FileResponse.forApp(Path.of(file), headers, request::header, !"HEAD".equals(request.method()));
        } catch (IOException | java.nio.file.InvalidPathException e) {
            return null;
        }
    }

    static void write(ThreadContext context, FileResponse answer, ResponseBody body, ResponseSink sink) {
        if (!answer.hasBody()) {
            body.close(context);
            sink.respond(answer.status(), answer.headers(), new byte[0], 0, 0);
            return;
        }
        sink.begin(answer.status(), answer.headers(), answer.length());
        try {
            sink.sendFile(answer.file(), answer.offset(), answer.length()); // opened before close may delete it
        } catch (IOException e) {
            throw new ClientGone(e);
        }
        body.close(context);
        sink.end();
    }
}
