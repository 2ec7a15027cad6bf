package org.nettyrack.core;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The one table of the doors' own answers: what the Netty and servlet doors' clients read. */
class PlainAnswersTest {
    @ParameterizedTest(name = "{0} {1}")
    @CsvSource(delimiter = ';', value = {
        "400; Bad Request",
        "408; Request Timeout",
        "413; Request Entity Too Large",
        "414; Request-URI Too Long",
        "431; Request Header Fields Too Large",
        "501; Not Implemented",
        "503; Service Unavailable",
        "505; HTTP Version Not Supported",
    })
    void eachAnswerIsItsStatusLineAsText(int status, String reason) {
        assertEquals(reason, PlainAnswers.reason(status));
        assertEquals(status + " " + reason + "\n", PlainAnswers.text(status));
        assertArrayEquals((status + " " + reason + "\n").getBytes(StandardCharsets.US_ASCII), PlainAnswers.body(status));
    }

    @ParameterizedTest
    @CsvSource({"200", "404", "500"})
    void aStatusNotAnsweredHereIsRefused(int status) {
        assertThrows(IllegalArgumentException.class, () -> PlainAnswers.text(status));
    }
}
