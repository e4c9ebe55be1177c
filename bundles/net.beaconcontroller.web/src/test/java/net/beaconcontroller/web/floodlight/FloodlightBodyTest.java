package net.beaconcontroller.web.floodlight;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

/** Floodlight's request bodies: a flat JSON object read as strings; anything else refused, saying why. */
class FloodlightBodyTest {
    @Test
    void aFlatObjectIsReadAsStringsNullAsEmpty() {
        var fields = FloodlightBody.fields("{\"src-ip\":\"10.0.0.1/32\",\"tp-dst\":80,\"action\":null}");
        assertEquals(Map.of("src-ip", "10.0.0.1/32", "tp-dst", "80", "action", ""), fields);
        assertEquals(List.of("src-ip", "tp-dst", "action"), List.copyOf(fields.keySet()), "in the body's order");
    }

    @Test
    void anythingElseIsRefusedSayingWhy() {
        assertEquals("the body is not a JSON object", assertThrows(IllegalArgumentException.class,
                () -> FloodlightBody.fields("[\"src-ip\"]")).getMessage());
        assertEquals("the body is not a JSON object", assertThrows(IllegalArgumentException.class,
                () -> FloodlightBody.fields("")).getMessage());
        assertEquals("\"src-ip\" must be a string, not object", assertThrows(IllegalArgumentException.class,
                () -> FloodlightBody.fields("{\"src-ip\":{}}")).getMessage());
        assertEquals(true, assertThrows(IllegalArgumentException.class, () -> FloodlightBody.fields("{bad"))
                .getMessage().startsWith("the body is not JSON ("));
    }
}
