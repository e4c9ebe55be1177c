package net.beaconcontroller.config.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.lang.reflect.InvocationTargetException;
import java.net.BindException;

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
    void anyOtherFailureNamesTheComponentAndTheInnermostCause() {
        var e = new IllegalStateException("start failed", new BindException("Address already in use"));
        assertEquals("component net.beaconcontroller.core.Controller failed to activate: java.net.BindException:"
                + " Address already in use", Failures.line("net.beaconcontroller.core.Controller", trace(e), k -> ""));
        assertEquals("component c failed to activate: java.lang.IllegalStateException: boom",
                Failures.line("c", trace(new IllegalStateException("boom")), k -> ""));
    }
}
