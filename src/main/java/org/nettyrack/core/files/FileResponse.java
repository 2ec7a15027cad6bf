package org.nettyrack.core.files;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.function.Function;
import org.nettyrack.core.HttpDate;
import org.nettyrack.core.ResponseHeaders;

/**
 * The answer for a file, decided before any byte is sent: status, headers, and the region of
 * which file to send (a precompressed sibling's, perhaps). The same rules serve a public
 * directory ({@link #forPublic}) and a file an application answered with ({@link #forApp}:
 * a {@code to_path} body or an {@code x-sendfile} header), so a transport needs one file sender.
 * A transport sends {@link #file} from {@link #offset} for {@link #length} bytes when
 * {@link #hasBody}, from {@link #bytes} when the file's content was read with its facts (a small
 * public file; null otherwise); the length is the file's when it was looked at, so a file cut
 * short meanwhile must end the connection rather than the response.
 */
public record FileResponse(int status, ResponseHeaders headers, Path file, long offset, long length, byte[] bytes) {

    public boolean hasBody() {
        return status == 200 || status == 206;
    }

    /**
     * A file found under a public directory, for the request path {@code path}: content type
     * from its name, a precompressed sibling when the client accepts one, ETag,
     * Last-Modified, Accept-Ranges, the Cache-Control {@code cache} gives the path.
     */
    public static FileResponse forPublic(PublicFile file, String path, Function<String, String> request, boolean get,
                                         CacheRules cache) {
        Precompressed chosen = Precompressed.choose(file, request.apply("accept-encoding"));
        ResponseHeaders headers = new ResponseHeaders();
        headers.add("content-type", MimeTypes.of(file.plain().file().getFileName().toString()));
        if (chosen.encoding() != null) {
            headers.add("content-encoding", chosen.encoding());
        }
        if (chosen.varies()) {
            headers.add("vary", "accept-encoding");
        }
        String cacheControl = cache.forPath(path);
        if (cacheControl != null) {
            headers.add("cache-control", cacheControl);
        }
        FileFacts facts = chosen.facts();
        return answer(facts.file(), headers, request, get, facts.size(), facts.modified(), facts.lastModified(),
            facts.etag(), facts.bytes());
    }

    /**
     * A file the application answered a 200 with: its headers are kept (less Content-Length,
     * which the file's length replaces), its own ETag and Last-Modified used when it set them,
     * and Content-Type, ETag and Last-Modified added when it did not.
     */
    public static FileResponse forApp(Path file, ResponseHeaders appHeaders, Function<String, String> request,
                                      boolean get) throws IOException {
        BasicFileAttributes attributes = Files.readAttributes(file, BasicFileAttributes.class);
        if (!attributes.isRegularFile()) {
            throw new IOException(file + " is not a regular file");
        }
        long modified = attributes.lastModifiedTime().toMillis();
        ResponseHeaders headers = new ResponseHeaders();
        for (int i = 0; i < appHeaders.size(); i++) {
            String name = appHeaders.name(i);
            if (!name.equalsIgnoreCase("content-length") && !name.equalsIgnoreCase("x-sendfile")) {
                headers.add(name, appHeaders.value(i));
            }
        }
        if (!headers.contains("content-type")) {
            headers.add("content-type", MimeTypes.of(file.getFileName().toString()));
        }
        String etag = headers.get("etag");
        if (etag == null && !headers.contains("content-encoding")) {
            etag = ConditionalRange.etag(modified, attributes.size(), null);
        }
        String lastModified = headers.get("last-modified");
        if (lastModified != null) {
            long seconds = HttpDate.parseSeconds(lastModified);
            modified = seconds >= 0 ? seconds * 1000 : modified;
            headers.remove("last-modified");
        }
        headers.remove("etag");
        return answer(file, headers, request, get, attributes.size(), modified, HttpDate.formatMillis(modified), etag, null);
    }

    private static FileResponse answer(Path file, ResponseHeaders headers, Function<String, String> request,
                                       boolean get, long size, long modified, String lastModified, String etag,
                                       byte[] bytes) {
        if (etag != null) {
            headers.add("etag", etag);
        }
        headers.add("last-modified", lastModified);
        headers.add("accept-ranges", "bytes");
        ConditionalRange answer = ConditionalRange.decide(request, get, size, modified, etag);
        if (answer.contentRange() != null) {
            headers.add("content-range", answer.contentRange());
        }
        if (answer.status() == 304) {
            headers.remove("content-type");
            headers.remove("content-encoding");
        }
        return new FileResponse(answer.status(), headers, file, answer.offset(), answer.length(), bytes);
    }
}
