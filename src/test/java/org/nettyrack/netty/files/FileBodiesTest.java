package org.nettyrack.netty.files;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.ChannelFuture;
import io.netty.channel.DefaultFileRegion;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.ssl.SslHandler;
import io.netty.handler.stream.ChunkedNioFile;
import io.netty.handler.stream.ChunkedWriteHandler;
import io.netty.util.ReferenceCountUtil;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.nettyrack.netty.http1.Http1Wire;
import org.nettyrack.netty.pipeline.PipelineNames;

class FileBodiesTest {
    @TempDir
    Path dir;

    @Test
    void cleartextSendsARegionTheKernelCopies() throws IOException {
        Path file = Files.write(dir.resolve("f"), new byte[1000]);
        EmbeddedChannel channel = new EmbeddedChannel();
        FileBodies.write(channel, Http1Wire.INSTANCE, file, 10, 100);
        Object out = channel.readOutbound();
        DefaultFileRegion region = assertInstanceOf(DefaultFileRegion.class, out);
        assertTrue(region.position() == 10 && region.count() == 100);
        region.release();
        assertNull(channel.pipeline().get(ChunkedWriteHandler.class));
        channel.finishAndReleaseAll();
    }

    @Test
    void underTlsTheFileIsReadInChunksAsTheChannelDrains() throws Exception {
        Path file = Files.write(dir.resolve("f"), new byte[1000]);
        SSLEngine engine = SSLContext.getDefault().createSSLEngine();
        engine.setUseClientMode(false);
        EmbeddedChannel channel = new EmbeddedChannel(new SslHandler(engine));
        FileBodies.write(channel, Http1Wire.INSTANCE, file, 0, 1000);
        assertNotNull(channel.pipeline().get(PipelineNames.CHUNKED_WRITER));
        for (Object out; (out = channel.readOutbound()) != null; ) {
            assertFalse(out instanceof DefaultFileRegion, "no region under TLS");
            io.netty.util.ReferenceCountUtil.release(out);
        }
        channel.finishAndReleaseAll();
    }

    @ParameterizedTest(name = "as HttpContent: {0}")
    @ValueSource(booleans = {false, true})
    void aChunkedFileCutShortFailsInsteadOfSendingEmptyChunks(boolean asContent) throws Exception {
        Path file = Files.write(dir.resolve("f"), new byte[100]);
        FileBodies.Chunks input = new FileBodies.Chunks(new ChunkedNioFile(FileChannel.open(file), 0, 200, 64), asContent);
        Object first = input.readChunk(ByteBufAllocator.DEFAULT);
        Object second = input.readChunk(ByteBufAllocator.DEFAULT);
        assertEquals(asContent, first instanceof HttpContent);
        assertEquals(64, first instanceof HttpContent content ? content.content().readableBytes() : ((ByteBuf) first).readableBytes());
        ReferenceCountUtil.release(first);
        ReferenceCountUtil.release(second);
        assertThrows(IOException.class, () -> input.readChunk(ByteBufAllocator.DEFAULT));
        input.close();
    }

    @Test
    void aWriteThatFailsClosesTheConnection() throws Exception {
        Path file = Files.write(dir.resolve("f"), new byte[100]);
        EmbeddedChannel channel = new EmbeddedChannel(new ChunkedWriteHandler());
        channel.pipeline().addFirst(new io.netty.channel.ChannelOutboundHandlerAdapter() {
            @Override
            public void write(io.netty.channel.ChannelHandlerContext ctx, Object msg, io.netty.channel.ChannelPromise promise) {
                io.netty.util.ReferenceCountUtil.release(msg);
                promise.setFailure(new IOException("file truncated"));
            }
        });
        ChannelFuture written = FileBodies.write(channel, Http1Wire.INSTANCE, file, 0, 100);
        channel.runPendingTasks();
        assertFalse(written.isSuccess());
        assertFalse(channel.isOpen());
    }
}
