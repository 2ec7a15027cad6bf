package org.nettyrack.core;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class RequestBodyBufferTest {
    private static ByteBuffer bytes(String s) {
        return ByteBuffer.wrap(s.getBytes(StandardCharsets.US_ASCII));
    }

    @Test
    void smallBodiesStayInMemory() {
        RequestBodyBuffer buffer = new RequestBodyBuffer(16, 100);
        assertTrue(buffer.append(bytes("hello ")));
        assertTrue(buffer.append(bytes("world")));
        RequestBody body = buffer.finish();
        assertTrue(body.inMemory());
        assertEquals(11, body.length());
        assertEquals("hello world", new String(body.bytes(), 0, 11, StandardCharsets.US_ASCII));
    }

    @Test
    void largeBodiesSpoolToATempFileThatCloseDeletes() throws IOException {
        RequestBodyBuffer buffer = new RequestBodyBuffer(8, 100);
        buffer.append(bytes("0123456"));
        buffer.append(bytes("789abc"));
        RequestBody body = buffer.finish();
        assertFalse(body.inMemory());
        Path file = body.file();
        assertArrayEquals("0123456789abc".getBytes(StandardCharsets.US_ASCII), Files.readAllBytes(file));
        body.close();
        assertFalse(Files.exists(file));
    }

    @Test
    void refusesToGrowPastTheMaximum() {
        RequestBodyBuffer buffer = new RequestBodyBuffer(4, 10);
        assertTrue(buffer.append(bytes("12345678")));
        assertFalse(buffer.append(bytes("xyz")));
        assertEquals(8, buffer.length(), "nothing of the refused part was kept");
        assertFalse(buffer.accepts(11));
        assertTrue(buffer.accepts(10));
        buffer.discard();
    }

    @Test
    void emptyBodiesShareOneInstance() {
        assertTrue(new RequestBodyBuffer(4, 10).finish() == RequestBody.EMPTY);
    }
}
