package org.nettyrack.core.push;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.charset.StandardCharsets;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/** Server-Sent Events as the bytes an EventSource parses. */
class SseEventTest {
    private static String data(String s) {
        return new String(SseEvent.data(s.getBytes(StandardCharsets.UTF_8)), StandardCharsets.UTF_8);
    }

    private static String format(String id, String event, long retry, String data) {
        byte[] bytes = data == null ? null : data.getBytes(StandardCharsets.UTF_8);
        return new String(SseEvent.format(id, event, retry, bytes), StandardCharsets.UTF_8);
    }

    static Stream<Arguments> lines() {
        return Stream.of(
            Arguments.of("one line", "hello", "data: hello\n\n"),
            Arguments.of("LF", "a\nb", "data: a\ndata: b\n\n"),
            Arguments.of("CRLF", "a\r\nb", "data: a\ndata: b\n\n"),
            Arguments.of("CR", "a\rb", "data: a\ndata: b\n\n"),
            Arguments.of("mixed", "a\r\n\rb\nc", "data: a\ndata: \ndata: b\ndata: c\n\n"),
            Arguments.of("LF CR is two breaks", "a\n\rb", "data: a\ndata: \ndata: b\n\n"),
            Arguments.of("trailing LF", "a\n", "data: a\ndata: \n\n"),
            Arguments.of("trailing CR", "a\r", "data: a\ndata: \n\n"),
            Arguments.of("trailing CRLF", "a\r\n", "data: a\ndata: \n\n"),
            Arguments.of("blank lines", "\n\n", "data: \ndata: \ndata: \n\n"),
            Arguments.of("empty", "", "data: \n\n"),
            Arguments.of("colons and spaces", " x: y ", "data:  x: y \n\n"),
            Arguments.of("multibyte", "h\u00e9llo \u2713", "data: h\u00e9llo \u2713\n\n"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("lines")
    void splitsDataIntoOneDataLinePerLine(String name, String input, String expected) {
        assertEquals(expected, data(input));
    }

    @Test
    void writesTheFieldsBeforeTheData() {
        assertEquals("id: 7\nevent: tick\nretry: 3000\ndata: x\ndata: y\n\n", format("7", "tick", 3000, "x\ny"));
        assertEquals("event: tick\ndata: x\n\n", format(null, "tick", -1, "x"));
        assertEquals("id: 7\n\n", format("7", null, -1, null), "an event that only sets the last id");
        assertEquals("retry: 0\n\n", format(null, null, 0, null), "retry 0 is a value, below 0 means none");
        assertEquals("id: \ndata: x\n\n", format("", null, -1, "x"), "an empty id resets the last id");
        assertEquals("event: \u00fcn\u00ef\ndata: x\n\n", format(null, "\u00fcn\u00ef", -1, "x"));
    }

    @Test
    void dataArrayWithNoFieldsIsTheSameAsFormat() {
        byte[] bytes = "a\nb".getBytes(StandardCharsets.UTF_8);
        assertEquals(new String(SseEvent.format(null, null, -1, bytes), StandardCharsets.UTF_8),
            new String(SseEvent.data(bytes), StandardCharsets.UTF_8));
    }

    @ParameterizedTest
    @ValueSource(strings = {"a\nb", "a\rb", "a\r\n", "\n"})
    void refusesLineBreaksInIdAndEvent(String value) {
        assertThrows(IllegalArgumentException.class, () -> SseEvent.format(value, null, -1, null));
        assertThrows(IllegalArgumentException.class, () -> SseEvent.format(null, value, -1, null));
    }

    @Test
    void refusesNulInId() {
        assertThrows(IllegalArgumentException.class, () -> SseEvent.format("a\0b", null, -1, null),
            "clients ignore an id holding NUL, so it would silently not be set");
    }

    @Test
    void theCommentIsAColonLineAndABlankLine() {
        assertEquals(":\n\n", new String(SseEvent.COMMENT, StandardCharsets.US_ASCII));
    }
}
