package net.beaconcontroller.web.internal;

import org.osgi.service.component.annotations.Component;

/** {@code beacon:webpassword PASSWORD}: the hash to put in {@code web.passwordHash}. */
@Component(service = WebCommands.class, property = {"osgi.command.scope=beacon",
        "osgi.command.function=webpassword"})
public final class WebCommands {
    public String webpassword(String password) {
        return "web.passwordHash = " + PasswordHash.of(password.toCharArray());
    }
}
