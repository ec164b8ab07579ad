"""How the OpenAPI description names the device-token scheme."""

from drf_spectacular.extensions import OpenApiAuthenticationExtension


class DeviceTokenScheme(OpenApiAuthenticationExtension):
    target_class = "accounts.authentication.DeviceTokenAuthentication"
    name = "deviceToken"

    def get_security_definition(self, auto_schema: object) -> dict[str, str]:
        return {
            "type": "apiKey",
            "in": "header",
            "name": "Authorization",
            "description": "A device token from `POST auth/tokens/`, sent as "
            "`Authorization: Token <token>`. The legacy token of `POST auth/token/` is sent the "
            "same way.",
        }
