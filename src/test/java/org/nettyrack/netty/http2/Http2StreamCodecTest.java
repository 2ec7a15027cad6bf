package org.nettyrack.netty.http2;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http2.DefaultHttp2DataFrame;
import io.netty.handler.codec.http2.DefaultHttp2Headers;
import io.netty.handler.codec.http2.DefaultHttp2HeadersFrame;
import io.netty.handler.codec.http2.Http2Headers;
import io.netty.handler.codec.http2.Http2HeadersFrame;
import org.junit.jupiter.api.Test;

/**
 * The one handler each stream gets in place of Netty's stream codec, a date handler and a
 * request cleaner: what the application sees of a request, and what leaves of a response.
 */
class Http2StreamCodecTest {
    private final EmbeddedChannel stream = new EmbeddedChannel(Http2StreamCodec.INSTANCE);

    private static Http2Headers get(String path) {
        return new DefaultHttp2Headers().method("GET").scheme("https").authority("example.test").path(path);
    }

    @Test
    void aRequestEndedByItsHeadersIsOneWholeRequestWithOnlyTheClientsFieldsAndNoBodyBuffer() {
        stream.writeInbound(new DefaultHttp2HeadersFrame(get("/a?b=1").add("x-trace", "7"), true));
        FullHttpRequest request = assertInstanceOf(FullHttpRequest.class, stream.readInbound());

        assertEquals("/a?b=1", request.uri());
        assertEquals("example.test", request.headers().get("host"));
        assertEquals("7", request.headers().get("x-trace"));
        assertEquals(2, request.headers().size(), "no x-http2-* field the conversion added: " + request.headers());
        assertSame(Unpooled.EMPTY_BUFFER, request.content());
        assertNull(stream.readInbound());
    }

    @Test
    void aRequestWithABodyIsAHeadThenItsContentWithoutTheChunkedCodingTheConversionAdds() {
        stream.writeInbound(new DefaultHttp2HeadersFrame(get("/up").method("POST"), false));
        HttpRequest head = stream.readInbound();
        assertFalse(head instanceof FullHttpRequest);
        assertFalse(head.headers().contains("transfer-encoding"));
        assertEquals(1, head.headers().size(), head.headers().toString());

        stream.writeInbound(new DefaultHttp2DataFrame(Unpooled.copiedBuffer(new byte[] {1, 2}), true));
        HttpContent body = stream.readInbound();
        assertEquals(2, body.content().readableBytes());
        body.release();
    }

    @Test
    void anExtendedConnectKeepsItsProtocolOnTheStreamAndItsPathAsTheTarget() {
        Http2Headers connect = get("/chat").method("CONNECT").set(":protocol", "websocket").add("sec-websocket-version", "13");
        stream.writeInbound(new DefaultHttp2HeadersFrame(connect, false));
        HttpRequest request = stream.readInbound();

        assertEquals("/chat", request.uri());
        assertEquals("websocket", stream.attr(Http2Request.CONNECT_PROTOCOL).get());
    }

    @Test
    void aResponseLeavesWithTheServersDateUnlessItHasOne() {
        stream.writeOutbound(new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK));
        Http2HeadersFrame dated = stream.readOutbound();
        assertNotNull(dated.headers().get("date"));
        assertTrue(dated.isEndStream());

        DefaultFullHttpResponse own = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK);
        own.headers().set("date", "Sun, 06 Nov 1994 08:49:37 GMT");
        stream.writeOutbound(own);
        Http2HeadersFrame kept = stream.readOutbound();
        assertEquals("Sun, 06 Nov 1994 08:49:37 GMT", kept.headers().get("date").toString());
    }
}
