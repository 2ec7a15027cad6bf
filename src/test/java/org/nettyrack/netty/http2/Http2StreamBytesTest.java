package org.nettyrack.netty.http2;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.channel.socket.ChannelInputShutdownEvent;
import io.netty.handler.codec.http2.DefaultHttp2DataFrame;
import io.netty.handler.codec.http2.DefaultHttp2Headers;
import io.netty.handler.codec.http2.DefaultHttp2HeadersFrame;
import io.netty.handler.codec.http2.Http2DataFrame;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class Http2StreamBytesTest {
    private final List<Object> events = new ArrayList<>();
    private final EmbeddedChannel channel = new EmbeddedChannel(new Http2StreamBytes(), new ChannelInboundHandlerAdapter() {
        @Override
        public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
            events.add(evt);
        }
    });

    private static ByteBuf ascii(String text) {
        return Unpooled.copiedBuffer(text, StandardCharsets.US_ASCII);
    }

    private String readText() {
        ByteBuf buf = channel.readInbound();
        try {
            return buf.toString(StandardCharsets.US_ASCII);
        } finally {
            buf.release();
        }
    }

    @Test
    void dataFramesInAreTheirBytesAndEndStreamIsAHalfClose() {
        channel.writeInbound(new DefaultHttp2DataFrame(ascii("abc"), false), new DefaultHttp2DataFrame(Unpooled.EMPTY_BUFFER, false));
        assertEquals("abc", readText());
        assertNull(channel.readInbound(), "an empty DATA frame is no bytes");
        assertEquals(List.of(), events);
        channel.writeInbound(new DefaultHttp2DataFrame(ascii("d"), true));
        assertEquals("d", readText());
        assertEquals(List.of(ChannelInputShutdownEvent.INSTANCE), events);
        channel.writeInbound(new DefaultHttp2HeadersFrame(new DefaultHttp2Headers(), true));
        assertEquals(1, events.size(), "said once");
    }

    @Test
    void trailersThatEndTheStreamAreAHalfCloseToo() {
        channel.writeInbound(new DefaultHttp2HeadersFrame(new DefaultHttp2Headers().add("x", "y"), true));
        assertNull(channel.readInbound());
        assertEquals(List.of(ChannelInputShutdownEvent.INSTANCE), events);
    }

    @Test
    void bytesOutAreDataFramesAndCloseEndsTheStreamFirst() {
        channel.writeOutbound(ascii("xyz"), Unpooled.EMPTY_BUFFER);
        Http2DataFrame out = channel.readOutbound();
        assertEquals("xyz", out.content().toString(StandardCharsets.US_ASCII));
        assertFalse(out.isEndStream());
        out.release();
        assertNull(channel.readOutbound(), "an empty buffer (a flush marker) sends nothing");
        channel.close();
        Http2DataFrame end = channel.readOutbound();
        assertTrue(end.isEndStream());
        assertEquals(0, end.content().readableBytes());
        end.release();
        assertFalse(channel.finishAndReleaseAll());
    }
}
