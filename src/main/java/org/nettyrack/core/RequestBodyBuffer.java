package org.nettyrack.core;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;

/**
 * Collects a request body as it arrives, in memory up to a threshold and in a temp file
 * beyond it, refusing to grow past the body-size limit. One buffer per request, fed from a
 * single I/O thread; {@link #finish()} hands the result over as a {@link RequestBody}.
 */
public final class RequestBodyBuffer {
    private final int memoryLimit;
    private final long maxSize;
    private byte[] memory = new byte[0];
    private long length;
    private Path file;
    private FileChannel channel;

    public RequestBodyBuffer(int memoryLimit, long maxSize) {
        this.memoryLimit = memoryLimit;
        this.maxSize = maxSize;
    }

    /** Whether a body of this declared length may be accepted at all. */
    public boolean accepts(long declaredLength) {
        return declaredLength <= maxSize;
    }

    /**
     * Appends the remaining bytes of {@code src}. Returns false, appending nothing, when the
     * body would exceed the maximum size; the caller answers 413.
     */
    public boolean append(ByteBuffer src) {
        int n = src.remaining();
        if (length + n > maxSize) {
            return false;
        }
        try {
            if (channel == null && length + n <= memoryLimit) {
                ensureCapacity((int) length + n);
                src.get(memory, (int) length, n);
            } else {
                if (channel == null) {
                    spool();
                }
                while (src.hasRemaining()) {
                    channel.write(src);
                }
            }
        } catch (IOException e) {
            discard();
            throw new UncheckedIOException("cannot spool request body to a temp file", e);
        }
        length += n;
        return true;
    }

    public long length() {
        return length;
    }

    public RequestBody finish() {
        if (channel == null) {
            return RequestBody.inMemory(memory, (int) length);
        }
        try {
            channel.close();
        } catch (IOException e) {
            discard();
            throw new UncheckedIOException("cannot close spooled request body", e);
        }
        channel = null;
        return RequestBody.inFile(file, length);
    }

    /** Drops whatever was collected, deleting a temp file; for aborted requests. */
    public void discard() {
        try {
            if (channel != null) {
                channel.close();
            }
            if (file != null) {
                Files.deleteIfExists(file);
            }
        } catch (IOException ignored) {
            // Nothing more can be done for a body nobody will read.
        }
        channel = null;
        memory = new byte[0];
    }

    private void ensureCapacity(int needed) {
        if (needed > memory.length) {
            int size = Math.min(memoryLimit, Math.max(needed, Math.max(1024, memory.length * 2)));
            memory = Arrays.copyOf(memory, size);
        }
    }

    private void spool() throws IOException {
        file = Files.createTempFile("nettyrack-body-", ".tmp");
        channel = FileChannel.open(file, StandardOpenOption.WRITE);
        channel.write(ByteBuffer.wrap(memory, 0, (int) length));
        memory = new byte[0];
    }
}
