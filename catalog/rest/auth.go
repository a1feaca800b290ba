package rest

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"

	"github.com/icesql/icesql/internal/restapi"
)

// authenticate sets the bearer token: "token" as given, or one fetched
// with the OAuth2 client credentials grant when "credential" is set
// ("client_id:client_secret", or just the secret), from
// "oauth2-server-uri" (default <base>/v1/oauth/tokens) with "scope"
// (default "catalog").
func (c *Catalog) authenticate(ctx context.Context) error {
	cred := c.props["credential"]
	if cred == "" {
		c.setToken(c.props["token"])
		return nil
	}
	id, secret, ok := strings.Cut(cred, ":")
	if !ok {
		id, secret = "", cred
	}
	tokenURI := c.props["oauth2-server-uri"]
	if tokenURI == "" {
		tokenURI = c.base + "/v1/oauth/tokens"
	}
	scope := c.props["scope"]
	if scope == "" {
		scope = "catalog"
	}
	form := url.Values{"grant_type": {"client_credentials"}, "client_secret": {secret}, "scope": {scope}}
	if id != "" {
		form.Set("client_id", id)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, tokenURI, strings.NewReader(form.Encode()))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	resp, err := c.http.Do(req)
	if err != nil {
		return fmt.Errorf("rest catalog: OAuth2 token request: %w", err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	if resp.StatusCode != http.StatusOK {
		var oe struct {
			Error string `json:"error"`
		}
		json.Unmarshal(body, &oe)
		return fmt.Errorf("%w: OAuth2 token endpoint %s answered %d %s", ErrNotAuthorized, redact(tokenURI), resp.StatusCode, oe.Error)
	}
	var tr restapi.OAuthTokenResponse
	if err := json.Unmarshal(body, &tr); err != nil || tr.AccessToken == "" {
		return fmt.Errorf("%w: OAuth2 token response without access_token", ErrBadResponse)
	}
	c.setToken(tr.AccessToken)
	return nil
}
