package org.nettyrack.netty.hijack;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.nettyrack.netty.pipeline.ConnectionEvent;

/** Two channels joined by a pump each: bytes cross, early bytes wait for the peer, closes spread. */
class HijackPumpTest {
    private final HijackPump clientSide = new HijackPump(0);
    private final HijackPump appSide = new HijackPump(0);
    private final EmbeddedChannel client = new EmbeddedChannel(clientSide);
    private final EmbeddedChannel app = new EmbeddedChannel(appSide);

    private void link() {
        clientSide.peer(app);
        appSide.peer(client);
    }

    private static ByteBuf bytes(String text) {
        return Unpooled.copiedBuffer(text, StandardCharsets.US_ASCII);
    }

    private static String text(EmbeddedChannel channel) {
        ByteBuf out = channel.readOutbound();
        if (out == null) {
            return null;
        }
        try {
            return out.toString(StandardCharsets.US_ASCII);
        } finally {
            out.release();
        }
    }

    @Test
    void bytesCrossBothWays() {
        link();
        client.writeInbound(bytes("from the client"));
        assertEquals("from the client", text(app));
        app.writeInbound(bytes("from the app"));
        assertEquals("from the app", text(client));
        assertNull(text(client));
    }

    @Test
    void bytesReadBeforeThePeerIsKnownGoFirst() {
        app.writeInbound(bytes("early "));
        client.writeInbound(bytes("buffered"));
        assertNull(text(client));
        link();
        assertEquals("early ", text(client));
        assertEquals("buffered", text(app));
    }

    @Test
    void eitherSideClosingClosesTheOther() {
        link();
        app.writeInbound(bytes("last words"));
        app.close();
        assertEquals("last words", text(client));
        client.runPendingTasks();
        assertFalse(client.isActive(), "the app closed its end: the client's connection closes");

        HijackPump a = new HijackPump(0);
        HijackPump b = new HijackPump(0);
        EmbeddedChannel c1 = new EmbeddedChannel(a);
        EmbeddedChannel c2 = new EmbeddedChannel(b);
        a.peer(c2);
        b.peer(c1);
        c1.close();
        assertFalse(c2.isActive(), "the client went: the app's end closes");
    }

    @Test
    void aStoppingServerClosesTheConnection() {
        link();
        client.pipeline().fireUserEventTriggered(ConnectionEvent.DRAIN);
        assertFalse(client.isActive());
        assertFalse(app.isActive());
    }

    @Test
    void theOtherSideReadsAgainOnceThisSideDrains() {
        link();
        app.config().setAutoRead(false);
        client.pipeline().fireChannelWritabilityChanged(); // the client is writable again
        assertTrue(app.config().isAutoRead());
    }
}
