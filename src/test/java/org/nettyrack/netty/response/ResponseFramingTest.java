package org.nettyrack.netty.response;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.handler.codec.http.HttpHeaders;
import org.junit.jupiter.api.Test;
import org.nettyrack.core.ResponseHeaders;

/** The framing decisions alone; {@code NettyResponseSinkTest} sees them as bytes on the wire. */
class ResponseFramingTest {
    private static final boolean HTTP11 = true;
    private static final boolean HTTP10 = false;

    private static ResponseHeaders app(String... pairs) {
        ResponseHeaders h = new ResponseHeaders();
        for (int i = 0; i < pairs.length; i += 2) {
            h.add(pairs[i], pairs[i + 1]);
        }
        return h;
    }

    @Test
    void aWholeBodyIsStatedByItsLengthAndTheApplicationsFramingIsDropped() {
        ResponseFraming framing = new ResponseFraming(HTTP11, false, true, 200,
            app("content-type", "text/plain", "Content-Length", "99", "transfer-encoding", "chunked"));
        HttpHeaders out = framing.whole(5);
        assertEquals("5", out.get("content-length"));
        assertNull(out.get("transfer-encoding"));
        assertNull(out.get("connection"));
        assertEquals("text/plain", out.get("content-type"));
        assertTrue(framing.keepAlive() && framing.bodyAllowed());
    }

    @Test
    void aHeadAnswerStatesWhatAGetWouldHaveSent() {
        assertEquals("1234", new ResponseFraming(HTTP11, true, true, 200, app("content-length", "1234")).whole(0)
            .get("content-length"), "the application's own length");
        ResponseFraming noLength = new ResponseFraming(HTTP11, true, true, 200, app());
        assertFalse(noLength.bodyAllowed());
        assertEquals("5", noLength.whole(5).get("content-length"), "the length of the body it gave");
        ResponseFraming streamedHead = new ResponseFraming(HTTP11, true, true, 200, app());
        assertEquals(77, streamedHead.streamed(77));
        assertEquals("77", streamedHead.settled().get("content-length"), "a streamed HEAD answer states the known length");
    }

    @Test
    void bodilessStatusesStateNoLength() {
        for (int status : new int[] {204, 304, 101}) {
            ResponseFraming framing = new ResponseFraming(HTTP11, false, true, status, app("content-length", "10"));
            assertFalse(framing.bodyAllowed(), String.valueOf(status));
            assertNull(framing.whole(10).get("content-length"), String.valueOf(status));
        }
        ResponseFraming head304 = new ResponseFraming(HTTP11, true, true, 304, app("content-length", "10"));
        assertNull(head304.whole(0).get("content-length"));
    }

    @Test
    void anUnknownLengthIsChunkedOnHttp11AndCloseDelimitedOnHttp10() {
        ResponseFraming http11 = new ResponseFraming(HTTP11, false, true, 200, app());
        assertEquals(-1, http11.streamed(-1));
        assertEquals("chunked", http11.settled().get("transfer-encoding"));
        assertTrue(http11.keepAlive());

        ResponseFraming http10 = new ResponseFraming(HTTP10, false, true, 200, app());
        assertEquals(-1, http10.streamed(-1));
        assertNull(http10.settled().get("transfer-encoding"));
        assertFalse(http10.keepAlive());
        assertEquals("close", http10.settled().get("connection"));
    }

    @Test
    void theApplicationsDeclaredLengthWinsAndAnUnreadableOneCountsAsUnknown() {
        ResponseFraming declared = new ResponseFraming(HTTP11, false, true, 200, app("content-length", " 42 "));
        assertEquals(42, declared.streamed(7));
        assertEquals("42", declared.settled().get("content-length"));

        ResponseFraming unreadable = new ResponseFraming(HTTP11, false, true, 200, app("content-length", "lots"));
        assertEquals(-1, unreadable.streamed(7));
        assertEquals("chunked", unreadable.settled().get("transfer-encoding"));
        assertNull(unreadable.settled().get("content-length"));
    }

    @Test
    void theConnectionStaysUnlessTheRequestOrTheApplicationEndsIt() {
        ResponseFraming closing = new ResponseFraming(HTTP11, false, true, 200, app("Connection", "Close"));
        assertEquals("close", closing.whole(0).get("connection"));
        assertFalse(closing.keepAlive());

        ResponseFraming refused = new ResponseFraming(HTTP11, false, false, 200, app());
        assertEquals("close", refused.whole(0).get("connection"));

        ResponseFraming http10 = new ResponseFraming(HTTP10, false, true, 200, app());
        assertEquals("keep-alive", http10.whole(3).get("connection"), "an HTTP/1.0 client is told it stays");
        assertTrue(http10.keepAlive());
    }
}
