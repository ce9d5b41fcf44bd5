"""The games laro implements; each subpackage is pure rules and imports only ``laro.core``."""
