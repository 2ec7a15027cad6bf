package org.nettyrack.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class HttpDateTest {
    @ParameterizedTest(name = "{0} s is {1}")
    @CsvSource(delimiter = ';', value = {
        "784111777;  Sun, 06 Nov 1994 08:49:37 GMT", // RFC 9110's own example
        "0;          Thu, 01 Jan 1970 00:00:00 GMT",
        "1795775415; Fri, 27 Nov 2026 10:30:15 GMT",
        "1793230200; Wed, 28 Oct 2026 23:30:00 GMT",
    })
    void formatsTheImfFixdateWithATwoDigitDay(long second, String expected) {
        assertEquals(expected, HttpDate.format(second));
        assertEquals(second, ZonedDateTime.parse(expected, DateTimeFormatter.RFC_1123_DATE_TIME).toEpochSecond());
    }

    @Test
    void everyDayOfAMonthHasTwoDigitsAndReadsBack() {
        for (int day = 1; day <= 31; day++) {
            long second = ZonedDateTime.of(2026, 1, day, 9, 5, 7, 0, java.time.ZoneOffset.UTC).toEpochSecond();
            String date = HttpDate.formatMillis(second * 1000 + 999);
            assertEquals(String.format("%02d Jan 2026 09:05:07 GMT", day), date.substring(5), date);
            assertEquals(second, HttpDate.parseSeconds(date), date);
        }
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = ';', value = {
        "Sun, 06 Nov 1994 08:49:37 GMT",   // IMF-fixdate
        "Sunday, 06-Nov-94 08:49:37 GMT",  // obsolete RFC 850 format
        "Sun Nov  6 08:49:37 1994",        // ANSI C's asctime() format
        "Sun, 6 Nov 1994 08:49:37 GMT",    // a one-digit day, as Java's RFC 1123 formatter wrote it
    })
    void readsTheThreeFormsARecipientMustAccept(String value) {
        assertEquals(784111777L, HttpDate.parseSeconds(value));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = ';', value = {"yesterday", "Sun, 06 Nov 1994", "1994-11-06T08:49:37Z", "Sun, 32 Nov 1994 08:49:37 GMT"})
    void anythingElseIsNotADate(String value) {
        assertEquals(-1, HttpDate.parseSeconds(value));
    }

    @Test
    void formatsOncePerSecond() {
        AtomicLong clock = new AtomicLong(784111777_000L);
        HttpDate date = new HttpDate(clock::get);
        String first = date.current();
        clock.set(784111777_999L);
        assertSame(first, date.current(), "the same second: the same value, not formatted again");
        clock.set(784111778_000L);
        String next = date.current();
        assertNotSame(first, next);
        assertEquals("Sun, 06 Nov 1994 08:49:38 GMT", next);
    }

    @Test
    void appliesToEveryFinalStatus() {
        for (int status : new int[] {200, 204, 301, 304, 404, 500, 503}) {
            assertTrue(HttpDate.applies(status), String.valueOf(status));
        }
        for (int status : new int[] {100, 101, 103}) {
            assertFalse(HttpDate.applies(status), String.valueOf(status));
        }
    }
}
