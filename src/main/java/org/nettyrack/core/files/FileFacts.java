package org.nettyrack.core.files;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import org.nettyrack.core.HttpDate;

/**
 * What an answer needs to know of one file, read at one moment: its length and modification
 * time, the Last-Modified and ETag they make, and, for a file of at most
 * {@link #KEEP_BYTES} bytes, its whole content, so that a small file is sent from memory.
 * {@link PublicFileCache} keeps these for a while, so a public file is not stat'ed and read on
 * every request.
 */
public record FileFacts(Path file, long size, long modified, String lastModified, String etag, byte[] bytes) {
    /** Files up to this size are read with their facts and sent in the response's one write. */
    public static final int KEEP_BYTES = 16 * 1024;

    /**
     * The facts of a regular file ({@code encoding}: the content coding its ETag is for, null
     * for none), or null when there is no regular file; small files are read whole.
     */
    static FileFacts read(Path file, String encoding) throws IOException {
        BasicFileAttributes attributes;
        try {
            attributes = Files.readAttributes(file, BasicFileAttributes.class);
        } catch (java.nio.file.NoSuchFileException e) {
            return null;
        }
        if (!attributes.isRegularFile()) {
            return null;
        }
        long modified = attributes.lastModifiedTime().toMillis();
        byte[] bytes = attributes.size() <= KEEP_BYTES ? Files.readAllBytes(file) : null;
        long size = bytes != null ? bytes.length : attributes.size(); // what was read is what is sent
        return new FileFacts(file, size, modified, HttpDate.formatMillis(modified),
            ConditionalRange.etag(modified, size, encoding), bytes);
    }
}
