package org.nettyrack.core;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A request body read in full before the application runs: bytes in memory, or a temp file
 * when it outgrew the in-memory threshold. {@link #close()} deletes the file; the transport
 * calls it once the response is finished.
 */
public final class RequestBody implements AutoCloseable {
    private static final byte[] NO_BYTES = new byte[0];
    public static final RequestBody EMPTY = new RequestBody(NO_BYTES, 0, null);

    private final byte[] bytes;
    private final long length;
    private final Path file;

    private RequestBody(byte[] bytes, long length, Path file) {
        this.bytes = bytes;
        this.length = length;
        this.file = file;
    }

    static RequestBody inMemory(byte[] bytes, int length) {
        return length == 0 ? EMPTY : new RequestBody(bytes, length, null);
    }

    static RequestBody inFile(Path file, long length) {
        return new RequestBody(null, length, file);
    }

    public long length() {
        return length;
    }

    /** True when the body is in {@link #bytes()}, false when it is in {@link #file()}. */
    public boolean inMemory() {
        return file == null;
    }

    /** The body's bytes; valid from 0 to {@link #length()}. Only when {@link #inMemory()}. */
    public byte[] bytes() {
        return bytes;
    }

    /** The spooled body; only when not {@link #inMemory()}. */
    public Path file() {
        return file;
    }

    @Override
    public void close() {
        if (file != null) {
            try {
                Files.deleteIfExists(file);
            } catch (IOException ignored) {
                // The temp dir is cleaned by the OS; a leftover file is not worth failing a request.
            }
        }
    }
}
