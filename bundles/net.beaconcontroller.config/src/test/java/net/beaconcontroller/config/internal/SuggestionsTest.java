package net.beaconcontroller.config.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;

import org.junit.jupiter.api.Test;

class SuggestionsTest {
    private static final List<String> KNOWN = List.of("controller.threadCount", "controller.echoInterval",
            "controller.listenPort", "learningswitch.idleTimeout", "controller.callbackOrdering");

    @Test
    void nearMissesAreSuggested() {
        assertEquals(" (did you mean controller.threadCount?)", Suggestions.forKey("controller.threadcount", KNOWN));
        assertEquals(" (did you mean controller.echoInterval?)", Suggestions.forKey("controller.echoIntervall", KNOWN));
        assertEquals(" (did you mean learningswitch.idleTimeout?)",
                Suggestions.forKey("learningswitch.idleTimout", KNOWN));
        assertEquals(" (did you mean controller.listenPort?)", Suggestions.forKey("controler.listenPort", KNOWN));
        assertEquals(" (did you mean controller.callbackOrdering?)",
                Suggestions.forKey("controller.callbackOrderin[PACKET_IN]", KNOWN));
    }

    @Test
    void farKeysGetNoSuggestion() {
        assertEquals("", Suggestions.forKey("web.port", KNOWN));
    }

    @Test
    void everyCloseKeyIsNamed() {
        assertEquals(" (did you mean a.bc or a.bd?)", Suggestions.forKey("a.b", List.of("a.bd", "a.bc", "z.zzzz")));
    }
}
