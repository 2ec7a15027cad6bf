package org.nettyrack.netty.files;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPipeline;
import io.netty.channel.DefaultFileRegion;
import io.netty.handler.codec.http.DefaultHttpContent;
import io.netty.handler.ssl.SslHandler;
import io.netty.handler.stream.ChunkedInput;
import io.netty.handler.stream.ChunkedNioFile;
import io.netty.handler.stream.ChunkedWriteHandler;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.nettyrack.netty.pipeline.PipelineNames;
import org.nettyrack.netty.pipeline.Wire;

/**
 * Writes a region of a file as response body bytes, the one file sender of the Netty door
 * (public files, {@code to_path} bodies, {@code x-sendfile}). Cleartext: a {@link
 * DefaultFileRegion}, which the kernel copies to the socket (sendfile(2)) without the heap.
 * Under TLS (an {@link SslHandler} in the pipeline) bytes must pass through the cipher, so
 * the file is read in chunks by Netty's {@link ChunkedWriteHandler}, added in front of the
 * encoder the first time, which reads the next chunk only when the channel is writable: a
 * slow reader holds one chunk, not the file. An HTTP/2 stream takes the same chunks as
 * {@code HttpContent} for its frame codec, and its writability is the stream's flow-control
 * window, so the chunked writer waits for the client's window. A file that turns out shorter than the region
 * (truncated meanwhile) fails the write, and the connection is closed: the response was
 * promised a length it cannot have.
 */
public final class FileBodies {
    private static final int CHUNK = 64 * 1024;

    private FileBodies() {
    }

    /** Writes and flushes the region; the returned future fails when the file ran short. */
    public static ChannelFuture write(Channel channel, Wire wire, Path file, long offset, long length) throws IOException {
        FileChannel in = FileChannel.open(file, StandardOpenOption.READ);
        Object body;
        try {
            if (!wire.isStream() && channel.pipeline().get(SslHandler.class) == null) {
                body = new DefaultFileRegion(in, offset, length);
            } else {
                body = chunked(channel.pipeline(), in, offset, length, wire.isStream());
            }
        } catch (IOException | RuntimeException e) {
            in.close();
            throw e;
        }
        ChannelFuture written = channel.writeAndFlush(body);
        written.addListener(ChannelFutureListener.CLOSE_ON_FAILURE);
        return written;
    }

    private static Chunks chunked(ChannelPipeline pipeline, FileChannel in, long offset, long length, boolean asContent)
        throws IOException {
        if (pipeline.get(PipelineNames.CHUNKED_WRITER) == null) {
            if (pipeline.get(PipelineNames.ENCODER) != null) {
                pipeline.addAfter(PipelineNames.ENCODER, PipelineNames.CHUNKED_WRITER, new ChunkedWriteHandler());
            } else {
                pipeline.addLast(PipelineNames.CHUNKED_WRITER, new ChunkedWriteHandler()); // still before any handler on the way out
            }
        }
        return new Chunks(new ChunkedNioFile(in, offset, length, CHUNK), asContent);
    }

    /**
     * A file's region in chunks, failing instead of yielding empty chunks forever when the file
     * ends early: as bytes for the HTTP/1.1 encoder (or TLS), or as {@code HttpContent}, what an
     * HTTP/2 stream's codec turns into DATA frames (never a last content: the response's end
     * comes after, from the sink).
     */
    static final class Chunks implements ChunkedInput<Object> {
        private final ChunkedNioFile file;
        private final boolean asContent;

        Chunks(ChunkedNioFile file, boolean asContent) {
            this.file = file;
            this.asContent = asContent;
        }

        @Override
        public boolean isEndOfInput() throws Exception {
            return file.isEndOfInput();
        }

        @Override
        public void close() throws Exception {
            file.close();
        }

        @Override
        @Deprecated
        public Object readChunk(ChannelHandlerContext ctx) throws Exception {
            return readChunk(ctx.alloc());
        }

        @Override
        public Object readChunk(ByteBufAllocator allocator) throws Exception {
            long before = file.currentOffset();
            ByteBuf chunk = file.readChunk(allocator);
            if (!file.isEndOfInput() && file.currentOffset() == before) {
                if (chunk != null) {
                    chunk.release();
                }
                throw new IOException("file truncated at " + before + " while being sent");
            }
            return asContent && chunk != null ? new DefaultHttpContent(chunk) : chunk;
        }

        @Override
        public long length() {
            return file.length();
        }

        @Override
        public long progress() {
            return file.progress();
        }
    }
}
