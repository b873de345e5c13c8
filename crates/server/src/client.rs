//! The browser client's files, served so that an upgrade reaches every page. The page loads its
//! scripts and styles under a path named by the files' contents (`/v/<version>/js/app.js`, whose
//! imports are relative and so come from the same folder), so a browser that kept a previous
//! release's files in its cache asks for the new ones whatever that cache decided: a release that
//! served them with a date alone left them to the browser's guess, days of the old client, or a
//! page of old and new modules that failed to load (from a self-hoster's audit of an upgrade).
//! The files stay at their plain paths too (`/js/app.js`), for a page loaded before an upgrade.

use axum::Router;
use axum::http::{StatusCode, header};
use axum::response::{Html, IntoResponse};
use std::hash::{DefaultHasher, Hash, Hasher};
use std::path::{Path, PathBuf};
use tower_http::services::ServeDir;

/// The client's one page, with its files' addresses under this set of files' version.
#[derive(Clone, Debug)]
pub struct ClientFiles {
    version: String,
    page: String,
}

impl ClientFiles {
    /// Reads `static_dir`: its version is a hash of every file's path and contents. The server
    /// refuses to start without `index.html` (serve.rs); here a missing one is an empty page.
    pub fn load(static_dir: &Path) -> ClientFiles {
        let mut files = Vec::new();
        list_files(static_dir, &mut files);
        files.sort();
        let mut hasher = DefaultHasher::new();
        for file in &files {
            file.strip_prefix(static_dir)
                .unwrap_or(file)
                .hash(&mut hasher);
            std::fs::read(file).unwrap_or_default().hash(&mut hasher);
        }
        let version = format!("{:016x}", hasher.finish());
        let page = std::fs::read_to_string(static_dir.join("index.html"))
            .unwrap_or_default()
            .replace(r#"href="/css/"#, &format!(r#"href="/v/{version}/css/"#))
            .replace(r#"src="/js/"#, &format!(r#"src="/v/{version}/js/"#));
        ClientFiles { version, page }
    }

    /// The client's routes: the page at `/` and at each of `pages` (the client reads the path),
    /// the files under `/v/<version>/` and at their plain paths, and the page with a 404 for any
    /// other path.
    pub fn router(self, static_dir: &Path, pages: &[&str]) -> Router {
        let page = self.page.clone();
        let found = move || {
            let page = page.clone();
            async move { Html(page) }
        };
        let mut router = Router::new().route("/", axum::routing::get(found.clone()));
        for prefix in pages {
            router = router
                .route(prefix, axum::routing::get(found.clone()))
                .route(
                    &format!("{prefix}/{{*rest}}"),
                    axum::routing::get(found.clone()),
                );
        }
        let missing = self.page;
        let not_found = move || {
            let page = missing.clone();
            async move {
                (
                    StatusCode::NOT_FOUND,
                    [(header::CONTENT_TYPE, "text/html; charset=utf-8")],
                    page,
                )
                    .into_response()
            }
        };
        router
            .nest_service(
                &format!("/v/{}", self.version),
                ServeDir::new(static_dir).fallback(axum::routing::get(not_found.clone())),
            )
            .fallback_service(ServeDir::new(static_dir).fallback(axum::routing::get(not_found)))
    }
}

/// Every file under `folder`, in its subfolders too.
fn list_files(folder: &Path, files: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(folder) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            list_files(&path, files);
        } else {
            files.push(path);
        }
    }
}
