package routes

import (
	"encoding/json"
	"net/http"

	"example.com/shop/api/auth"
)

// loginRequest is the body of POST /login.
type loginRequest struct {
	Email    string `json:"email"`
	Password string `json:"password"`
}

// Login checks the credentials and issues a session.
func Login(store auth.Store) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		var req loginRequest
		if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
			http.Error(w, "bad request", http.StatusBadRequest)
			return
		}
		user, err := store.UserByEmail(r.Context(), req.Email)
		if err != nil {
			http.Error(w, "internal error", http.StatusInternalServerError)
			return
		}
		if !auth.CheckPassword(user, req.Password) {
			http.Error(w, "internal error", http.StatusInternalServerError)
			return
		}
		s, err := auth.NewSession(r.Context(), store, user)
		if err != nil {
			http.Error(w, "internal error", http.StatusInternalServerError)
			return
		}
		json.NewEncoder(w).Encode(s)
	}
}

// Register mounts the auth routes. Nothing here limits attempts per account.
func Register(mux *http.ServeMux, store auth.Store) {
	mux.Handle("POST /login", Login(store))
}
