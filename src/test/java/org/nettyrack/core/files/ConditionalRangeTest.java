package org.nettyrack.core.files;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ConditionalRangeTest {
    private static final long LENGTH = 1000;
    private static final long MODIFIED = 1_700_000_000_123L;
    private static final String ETAG = "\"abc\"";
    private static final String DATE = "Tue, 14 Nov 2023 22:13:20 GMT"; // MODIFIED, whole seconds
    private static final String EARLIER = "Tue, 14 Nov 2023 22:13:19 GMT";

    @ParameterizedTest(name = "{0}: {1} -> {2} {3}+{4} {5}")
    @CsvSource(delimiter = '|', value = {
        "none | | 200 | 0 | 1000 | ",
        "range | range=bytes=0-9 | 206 | 0 | 10 | bytes 0-9/1000",
        "open range | range=bytes=990- | 206 | 990 | 10 | bytes 990-999/1000",
        "suffix | range=bytes=-100 | 206 | 900 | 100 | bytes 900-999/1000",
        "suffix longer than file | range=bytes=-5000 | 206 | 0 | 1000 | bytes 0-999/1000",
        "end past file | range=bytes=500-5000 | 206 | 500 | 500 | bytes 500-999/1000",
        "unsatisfiable | range=bytes=1000-1001 | 416 | 0 | 0 | bytes */1000",
        "zero suffix | range=bytes=-0 | 416 | 0 | 0 | bytes */1000",
        "two ranges: whole | range=bytes=0-1,5-6 | 200 | 0 | 1000 | ",
        "other unit | range=items=0-1 | 200 | 0 | 1000 | ",
        "backwards | range=bytes=9-0 | 200 | 0 | 1000 | ",
        "garbage | range=bytes=a-b | 200 | 0 | 1000 | ",
        "if-range etag | range=bytes=0-9;if-range=\"abc\" | 206 | 0 | 10 | bytes 0-9/1000",
        "if-range other etag | range=bytes=0-9;if-range=\"old\" | 200 | 0 | 1000 | ",
        "if-range weak | range=bytes=0-9;if-range=W/\"abc\" | 200 | 0 | 1000 | ",
        "if-range date | range=bytes=0-9;if-range=" + DATE + " | 206 | 0 | 10 | bytes 0-9/1000",
        "if-range old date | range=bytes=0-9;if-range=" + EARLIER + " | 200 | 0 | 1000 | ",
        "if-none-match | if-none-match=\"abc\" | 304 | 0 | 0 | ",
        "if-none-match list weak | if-none-match=\"x\", W/\"abc\" | 304 | 0 | 0 | ",
        "if-none-match star | if-none-match=* | 304 | 0 | 0 | ",
        "if-none-match other | if-none-match=\"x\" | 200 | 0 | 1000 | ",
        "if-modified-since same | if-modified-since=" + DATE + " | 304 | 0 | 0 | ",
        "if-modified-since earlier | if-modified-since=" + EARLIER + " | 200 | 0 | 1000 | ",
        "if-none-match wins | if-none-match=\"x\";if-modified-since=" + DATE + " | 200 | 0 | 1000 | ",
        "304 before range | if-none-match=\"abc\";range=bytes=0-1 | 304 | 0 | 0 | ",
    })
    void decide(String name, String request, int status, long offset, long length, String contentRange) {
        Map<String, String> headers = new HashMap<>();
        if (request != null) {
            for (String field : request.split(";")) {
                int eq = field.indexOf('=');
                headers.put(field.substring(0, eq), field.substring(eq + 1));
            }
        }
        ConditionalRange answer = ConditionalRange.decide(headers::get, true, LENGTH, MODIFIED, ETAG);
        assertEquals(new ConditionalRange(status, offset, length, contentRange), answer);
    }

    @ParameterizedTest
    @CsvSource({"range=bytes=0-9"})
    void headIgnoresRange(String field) {
        ConditionalRange answer = ConditionalRange.decide(Map.of("range", "bytes=0-9")::get, false, LENGTH, MODIFIED, ETAG);
        assertEquals(200, answer.status());
    }
}
