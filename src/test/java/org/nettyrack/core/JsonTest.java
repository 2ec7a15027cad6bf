package org.nettyrack.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class JsonTest {
    @Test
    void nestsObjectsAndArraysWithCommasBetweenMembers() {
        String json = new Json().beginObject()
            .name("a").value(1)
            .name("b").beginArray().value("x").value(true).nullValue().beginObject().endObject().beginArray().endArray().endArray()
            .name("c").beginObject().name("d").value(false).endObject()
            .endObject().toString();
        assertEquals("{\"a\":1,\"b\":[\"x\",true,null,{},[]],\"c\":{\"d\":false}}", json);
    }

    static Stream<Arguments> strings() {
        return Stream.of(
            Arguments.of("plain", "plain"),
            Arguments.of("quote \" and backslash \\", "quote \\\" and backslash \\\\"),
            Arguments.of("line\nbreak\r\ttab", "line\\nbreak\\r\\ttab"),
            Arguments.of("\b\f", "\\b\\f"),
            Arguments.of("nul \u0000 esc \u001b del \u007f", "nul \\u0000 esc \\u001b del \\u007f"),
            Arguments.of("js separators \u2028\u2029", "js separators \\u2028\\u2029"),
            Arguments.of("héllo ✓ 😀", "héllo ✓ 😀"),
            Arguments.of("lone \ud83d high, lone \ude00 low", "lone \ufffd high, lone \ufffd low"),
            Arguments.of("</script>", "</script>"));
    }

    @ParameterizedTest(name = "{index}: {1}")
    @MethodSource("strings")
    void escapesStrings(String raw, String escaped) {
        assertEquals("[\"" + escaped + "\"]", new Json().beginArray().value(raw).endArray().toString());
    }

    @Test
    void escapesNamesLikeValues() {
        assertEquals("{\"a\\\"b\":null}", new Json().beginObject().name("a\"b").value((String) null).endObject().toString());
    }

    @Test
    void writesNumbersInPlainNotationAndNonFiniteOnesAsNull() {
        String json = new Json().beginArray().value(Long.MIN_VALUE).value(1e-7, 9).value(2.5, 3)
            .value(Double.NaN, 2).value(Double.POSITIVE_INFINITY, 2).endArray().toString();
        assertEquals("[-9223372036854775808,0.000000100,2.500,null,null]", json);
    }

    static Stream<Arguments> misuses() {
        return Stream.<Arguments>of(
            Arguments.of("a value without a name in an object", (Consumer<Json>) j -> j.beginObject().value(1)),
            Arguments.of("a name in an array", (Consumer<Json>) j -> j.beginArray().name("x")),
            Arguments.of("two names in a row", (Consumer<Json>) j -> j.beginObject().name("x").name("y")),
            Arguments.of("ending an object after a name", (Consumer<Json>) j -> j.beginObject().name("x").endObject()),
            Arguments.of("ending an array as an object", (Consumer<Json>) j -> j.beginArray().endObject()),
            Arguments.of("a second top-level value", (Consumer<Json>) j -> j.value(1).value(2)),
            Arguments.of("an unfinished document", (Consumer<Json>) j -> j.beginArray().toString()),
            Arguments.of("an empty document", (Consumer<Json>) Json::toString));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("misuses")
    void refusesMisuse(String name, Consumer<Json> misuse) {
        assertThrows(IllegalStateException.class, () -> misuse.accept(new Json()));
    }
}
