package net.beaconcontroller.config.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.lang.reflect.InvocationTargetException;
import java.net.BindException;
import java.util.List;
import java.util.Optional;

import org.junit.jupiter.api.Test;

import net.beaconcontroller.config.SettingException;

class FailuresTest {
    private static String trace(Throwable t) {
        var w = new StringWriter();
        t.printStackTrace(new PrintWriter(w));
        return w.toString();
    }

    @Test
    void aSettingExceptionBecomesTheSettingLineWithTheKeysSource() {
        var e = new SettingException("controller.echoTimeout", "5",
                "expected more than controller.echoInterval (5)");
        assertEquals("/etc/b.properties: controller.echoTimeout = '5' is not allowed: expected more than"
                + " controller.echoInterval (5)", Failures.line("core", trace(e), key -> "/etc/b.properties"));
        var wrapped = new InvocationTargetException(e);
        assertEquals("-Dx: controller.echoTimeout = '5' is not allowed: expected more than controller.echoInterval (5)",
                Failures.line("core", trace(wrapped), key -> "-Dx"));
    }

    @Test
    void anyOtherFailureNamesTheComponentAndWhatItsExceptionSays() {
        var e = new IllegalStateException("cannot listen on 0.0.0.0:6633: Address already in use",
                new BindException("Address already in use"));
        assertEquals("component core failed to activate: cannot listen on 0.0.0.0:6633: Address already in use",
                Failures.line("core", trace(e), k -> ""));
        var wrapped = new RuntimeException(new InvocationTargetException(new BindException("Address already in use")));
        assertEquals("component core failed to activate: Address already in use",
                Failures.line("core", trace(wrapped), k -> ""));
        assertEquals("component c failed to activate: java.lang.NullPointerException",
                Failures.line("c", trace(new NullPointerException()), k -> ""));
    }

    @Test
    void ofSeveralFailuresTheRejectedSettingIsToldNotTheServiceItsUsersMissed() {
        var setting = new SettingException("web.keystore", "", "expected a value because web.listenAddress = 0.0.0.0"
                + " is not a loopback address");
        var missed = new ComponentWatch.Failure("net.beaconcontroller.core.web.CoreWeb", 15,
                "Unable to get service for reference events");
        var other = new ComponentWatch.Failure("b", 16, trace(new IllegalStateException("port in use")));
        var cause = new ComponentWatch.Failure("net.beaconcontroller.web.internal.WebServer", 31,
                trace(new InvocationTargetException(setting)));
        assertEquals(cause, Failures.first(List.of(missed, other, cause)).orElseThrow());
        assertEquals(other, Failures.first(List.of(missed, other)).orElseThrow());
        assertEquals(missed, Failures.first(List.of(missed)).orElseThrow());
        assertEquals(Optional.empty(), Failures.first(List.of()));
    }
}
