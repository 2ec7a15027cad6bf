package org.nettyrack.netty.files;

import io.netty.buffer.ByteBuf;
import org.nettyrack.core.ResponseSink;

/**
 * A response sink that can also send a whole answer encoded already, head and body, past the
 * response encoder: the Netty door's, for {@link PublicFiles}' usual answer to a small file.
 */
public interface EncodedSink extends ResponseSink {
    /**
     * Writes {@code response} as it is, when the connection can take it (HTTP/1.1 that stays
     * open, nothing of the response sent yet); false, with nothing written, otherwise.
     */
    boolean respondEncoded(int status, ByteBuf response, int bodyLength);
}
